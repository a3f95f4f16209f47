import { z } from "zod";
import { HeraldConfig, readSettings } from "../core/config";
import { redisDatabaseNumber } from "../redis/database-number";

const channelEnvironment = z.object({
  /** `redis` or `memory` (in-process); Redis when REDIS_URL is set, memory otherwise. */
  CHANNELS_DRIVER: z.enum(["redis", "memory"]).optional(),
  /** Prefix of Redis channel names and presence keys; default `<NAME>:channels:<database number>:`. */
  CHANNELS_PREFIX: z.string().min(1).optional(),
  /** How long a process's presence members outlive its last refresh, in ms. */
  PRESENCE_TTL: z.coerce.number().int().min(300).default(30_000),
});

export interface ChannelSettings {
  driver: "redis" | "memory";
  redisUrl?: string;
  prefix: string;
  presenceTtlMs: number;
  /** Refresh and sweep a third of the TTL apart, so a live member is refreshed twice before it could lapse. */
  presenceIntervalMs: number;
}

export function readChannelSettings(config: HeraldConfig): ChannelSettings {
  const read = readSettings(channelEnvironment, config);
  const driver = read.CHANNELS_DRIVER ?? (config.redisUrl ? "redis" : "memory");
  if (driver === "redis" && !config.redisUrl) {
    readSettings(z.object({ REDIS_URL: z.string({ error: "CHANNELS_DRIVER=redis needs REDIS_URL" }) }), config);
  }
  return {
    driver,
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    prefix: read.CHANNELS_PREFIX ?? defaultChannelsPrefix(config.name, config.redisUrl),
    presenceTtlMs: read.PRESENCE_TTL,
    presenceIntervalMs: Math.floor(read.PRESENCE_TTL / 3),
  };
}

/**
 * `<NAME>:channels:<database number>:`. Redis pub/sub ignores the database number, so without it
 * two apps of one name on databases 2 and 3 of one Redis would receive each other's messages.
 */
export function defaultChannelsPrefix(name: string, redisUrl: string | undefined): string {
  return `${name}:channels:${redisUrl ? redisDatabaseNumber(redisUrl) : 0}:`;
}
