import { randomUUID } from "node:crypto";
import Redis from "ioredis";

/** The Redis the test suite runs against. */
export const TEST_REDIS_URL = "redis://127.0.0.1:6379";

/** A key (and channel) prefix no other test file (or run) uses. */
export function uniquePrefix(suite: string): string {
  return `herald-test:${suite}:${randomUUID().slice(0, 8)}:`;
}

function testRedisClient(): Redis {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on("error", () => undefined);
  return redis;
}

/** Connects and pings; fails the suite when Redis is missing, in CI and elsewhere alike: these tests have no meaning without it. */
async function connected(redis: Redis): Promise<Redis> {
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(`These tests need Redis at ${TEST_REDIS_URL}: ${(error as Error).message}`);
  }
  return redis;
}

/** A raw connection to the test Redis. */
export function connectTestRedis(): Promise<Redis> {
  return connected(testRedisClient());
}

/**
 * A test file's own key prefix and raw Redis connection: connected before its tests, and after
 * them every key under the prefix deleted and the connection closed.
 */
export function useTestRedis(suite: string): { prefix: string; redis: Redis } {
  const prefix = uniquePrefix(suite);
  const redis = testRedisClient();
  beforeAll(() => connected(redis));
  afterAll(async () => {
    if (redis.status !== "ready") return;
    await deleteKeys(redis, prefix);
    await redis.quit();
  });
  return { prefix, redis };
}

/** Deletes every key under the prefix (SCAN, never KEYS). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys: string[] = [];
  for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 500 })) keys.push(...(batch as string[]));
  if (keys.length) await redis.del(...keys);
}
