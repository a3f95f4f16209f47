import type { Redis } from "ioredis";

/**
 * What a Redis keeps across a restart: `aof` (append-only file), `rdb` (snapshots), both, none,
 * or `unknown` where CONFIG is disabled (as on many managed Redis services) and INFO does not tell.
 */
export interface RedisPersistence {
  aof: boolean | "unknown";
  rdb: boolean | "unknown";
}

function pairsToRecord(reply: unknown): Record<string, string> {
  const flat = (reply ?? []) as string[];
  const record: Record<string, string> = {};
  for (let index = 0; index + 1 < flat.length; index += 2) record[flat[index]!] = flat[index + 1]!;
  return record;
}

/** Reads the persistence settings: CONFIG GET where allowed, else `aof_enabled` of INFO persistence. */
export async function readRedisPersistence(redis: Redis): Promise<RedisPersistence> {
  try {
    const config = pairsToRecord(await redis.call("CONFIG", "GET", "appendonly"));
    const save = pairsToRecord(await redis.call("CONFIG", "GET", "save"));
    if (config.appendonly !== undefined && save.save !== undefined) {
      return { aof: config.appendonly === "yes", rdb: save.save.trim() !== "" };
    }
  } catch {
    // CONFIG renamed or refused: INFO still says whether the append-only file is on.
  }
  const aofEnabled = /^aof_enabled:(\d)/m.exec(await redis.info("persistence"))?.[1];
  return { aof: aofEnabled === "1" ? true : "unknown", rdb: "unknown" };
}
