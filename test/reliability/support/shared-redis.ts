import { randomUUID } from "node:crypto";
import Redis from "ioredis";

/** The machine's Redis, shared with every other test: only ever read and written under our own names. */
export const SHARED_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** An app NAME of its own, which prefixes every key the app writes (tasks, sessions, channels). */
export function uniqueAppName(label: string): string {
  return `herald-test-${label}-${randomUUID().slice(0, 8)}`;
}

/** Deletes every key of an app NAME (SCAN, never KEYS or FLUSH*); fails when Redis is missing. */
export async function deleteAppKeys(name: string): Promise<void> {
  const redis = new Redis(SHARED_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${name}:*`, count: 500 })) keys.push(...(batch as string[]));
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
