import { Redis } from "ioredis";
import { ScenarioSkipped } from "./scenario";

/** The Redis of the scenarios that need one: the machine's, on its standard port. */
export const REDIS_URL = "redis://127.0.0.1:6379";

/** Deletes every key under `prefix` (SCAN, never KEYS or FLUSH*). */
export async function removeKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    if (keys.length) await redis.unlink(...keys);
  } while (cursor !== "0");
}

/** A connection to REDIS_URL; without Redis the scenario is skipped, or fails when `required`. */
export async function connectRedis(required: boolean): Promise<Redis> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    const message = `Redis is not reachable at ${REDIS_URL}: ${(error as Error).message}`;
    if (required) throw new Error(`${message} (the run requires its services: CI=true or --require-services)`);
    throw new ScenarioSkipped(message);
  }
}

