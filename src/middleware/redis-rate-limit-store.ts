import type Redis from "ioredis";
import type { Logger } from "../core/logger";
import { RedisConnection } from "../redis/connection";
import { defineScripts } from "../redis/scripts";
import { MemoryRateLimitStore } from "./memory-rate-limit-store";
import { RateLimitHit, RateLimitStore } from "./rate-limit-store";

export interface RedisRateLimitStoreOptions {
  url: string;
  /** Put before every key; default `herald:ratelimit:`. */
  prefix?: string;
  /** How long a count may wait for Redis before this process counts on its own; default 500 ms. */
  commandTimeoutMs?: number;
  logger?: Logger;
}

/** Counts one call and opens the window on the first one; answers `[count, ms left in the window]`. */
const HIT = `
local count = redis.call("INCR", KEYS[1])
local ttl = redis.call("PTTL", KEYS[1])
if ttl < 0 then
  redis.call("PEXPIRE", KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;

/** Takes one call back, never below 0 and never recreating a window that has ended (DECR keeps the TTL). */
const UNCOUNT = `
if tonumber(redis.call("GET", KEYS[1]) or "0") > 0 then redis.call("DECR", KEYS[1]) end
return 0`;

type HitCommand = Redis & {
  heraldRateLimitHit(key: string, windowMs: number): Promise<[number, number]>;
  heraldRateLimitUncount(key: string): Promise<number>;
};

/**
 * Rate-limit counters in Redis, so every process on the same Redis and prefix shares each budget.
 * While Redis cannot be reached, each process counts on its own (in memory) rather than refusing
 * or letting everything through, and says so once in the log.
 */
export class RedisRateLimitStore extends RateLimitStore {
  readonly driver = "redis";
  readonly prefix: string;
  readonly client: HitCommand;
  private readonly fallback = new MemoryRateLimitStore();
  private readonly logger: Logger | undefined;
  private readonly connection: RedisConnection<HitCommand>;
  private degraded = false;

  constructor(options: RedisRateLimitStoreOptions) {
    super();
    this.prefix = options.prefix ?? "herald:ratelimit:";
    this.logger = options.logger;
    // Short timeouts: a count that waits for Redis holds up the call it limits.
    this.connection = new RedisConnection({
      url: options.url,
      service: "rate limits",
      commandTimeoutMs: options.commandTimeoutMs ?? 500,
      connectTimeoutMs: 2000,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
    this.client = this.connection.client;
    defineScripts(this.client, {
      heraldRateLimitHit: { keys: 1, lua: HIT },
      heraldRateLimitUncount: { keys: 1, lua: UNCOUNT },
    });
  }

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    return this.inRedis(
      async () => {
        const [count, ttl] = await this.client.heraldRateLimitHit(this.prefix + key, windowMs);
        return { count, resetAt: Date.now() + ttl };
      },
      () => this.fallback.hit(key, windowMs),
    );
  }

  async uncount(key: string): Promise<void> {
    await this.inRedis<unknown>(
      () => this.client.heraldRateLimitUncount(this.prefix + key),
      () => this.fallback.uncount(key),
    );
  }

  async reset(key: string): Promise<void> {
    await this.inRedis<unknown>(
      () => this.client.del(this.prefix + key),
      () => this.fallback.reset(key),
    );
  }

  /** Runs `command` on Redis, or `fallback` in this process while Redis is unreachable. */
  private async inRedis<T>(command: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    await this.connection.opened();
    try {
      const answer = await command();
      if (this.degraded) this.logger?.info("rate limits: Redis is back; counting across processes again");
      this.degraded = false;
      return answer;
    } catch (error) {
      if (!this.degraded) this.logger?.warn({ err: (error as Error).message }, "rate limits: Redis is unreachable; each process counts on its own");
      this.degraded = true;
      return fallback();
    }
  }

  async close(): Promise<void> {
    await this.fallback.close();
    await this.connection.close();
  }
}
