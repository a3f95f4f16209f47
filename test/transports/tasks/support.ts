import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** A key prefix of its own for each test file, so files running side by side never meet. */
export function uniquePrefix(file: string): string {
  return `herald-test:${file}:${randomUUID().slice(0, 8)}`;
}

/** Deletes every key under the prefix (SCAN, never KEYS). */
export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    await redis.quit();
  }
}
