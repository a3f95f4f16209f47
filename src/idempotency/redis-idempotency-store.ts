import type Redis from "ioredis";
import { IdempotencyStore } from "../core/idempotency-store";
import type { Logger } from "../core/logger";
import { RedisConnection } from "../redis/connection";
import { defineScripts } from "../redis/scripts";

export interface RedisIdempotencyStoreOptions {
  url: string;
  /** Put before every key; default `herald:idempotency:`. */
  prefix?: string;
  ttlMs: number;
  logger?: Logger;
}

/** Sets the key only if it holds nothing; answers what it holds otherwise (one round trip, no race with an expiry). */
const CLAIM = `
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return false end
return redis.call("GET", KEYS[1])`;

/** Replaces the claim with the answer, only if the key still holds this call's claim. */
const SETTLE = `
if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3]) end
return 0`;

/** Forgets the claim, only if the key still holds it. */
const RELEASE = `
if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) end
return 0`;

type IdempotencyCommands = Redis & {
  heraldIdempotencyClaim(key: string, value: string, holdMs: number): Promise<string | null>;
  heraldIdempotencySettle(key: string, claimed: string, value: string, keepMs: number): Promise<number>;
  heraldIdempotencyRelease(key: string, claimed: string): Promise<number>;
};

/**
 * Idempotency records in Redis, so a retry that lands on another process is answered the same.
 * A Redis that cannot be reached fails the claim, and the call is refused with a 503 rather than
 * run without the promise its key asked for.
 */
export class RedisIdempotencyStore extends IdempotencyStore {
  readonly driver = "redis";
  readonly prefix: string;
  readonly ttlMs: number;
  private readonly connection: RedisConnection<IdempotencyCommands>;

  constructor(options: RedisIdempotencyStoreOptions) {
    super();
    this.prefix = options.prefix ?? "herald:idempotency:";
    this.ttlMs = options.ttlMs;
    this.connection = new RedisConnection({
      url: options.url,
      service: "idempotency keys",
      commandTimeoutMs: 2000,
      connectTimeoutMs: 2000,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
    defineScripts(this.connection.client, {
      heraldIdempotencyClaim: { keys: 1, lua: CLAIM },
      heraldIdempotencySettle: { keys: 1, lua: SETTLE },
      heraldIdempotencyRelease: { keys: 1, lua: RELEASE },
    });
  }

  async claim(key: string, value: string, holdMs: number): Promise<string | undefined> {
    return (await this.send((client) => client.heraldIdempotencyClaim(this.prefix + key, value, Math.max(1, Math.ceil(holdMs))))) ?? undefined;
  }

  async settle(key: string, claimed: string, value: string, keepMs: number): Promise<void> {
    await this.send((client) => client.heraldIdempotencySettle(this.prefix + key, claimed, value, Math.max(1, Math.ceil(keepMs))));
  }

  async read(key: string): Promise<string | undefined> {
    return (await this.send((client) => client.get(this.prefix + key))) ?? undefined;
  }

  async release(key: string, claimed: string): Promise<void> {
    await this.send((client) => client.heraldIdempotencyRelease(this.prefix + key, claimed));
  }

  /** One command, on the connection opened at first use; a Redis failure is CONNECTION_SERVICE_UNAVAILABLE. */
  private async send<T>(command: (client: IdempotencyCommands) => Promise<T>): Promise<T> {
    await this.connection.opened();
    return this.connection.command(command);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
