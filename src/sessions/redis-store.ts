import { once } from "node:events";
import Redis from "ioredis";
import { ErrorType, TypedError } from "../core/errors";
import type { Logger } from "../core/logger";
import { checkTtl, decodeSessionData, encodeSessionData, SessionData, SessionStore } from "./session-store";

export interface RedisSessionStoreOptions {
  /** Where Redis listens, as a `redis://` or `rediss://` URL. */
  url: string;
  /** Put before every session id to make its key; default `herald:session:`. */
  prefix?: string;
  /** How long a command may go unanswered before it rejects; default 2000 ms. */
  commandTimeoutMs?: number;
  /** How long `connect()` waits for Redis to be ready; default 5000 ms. */
  connectTimeoutMs?: number;
  /** Where connection loss and recovery are reported. */
  logger?: Logger;
}

/**
 * Sessions in Redis, one string key per session holding its JSON, expiring with PX/PEXPIRE, so
 * every process on the same Redis sees the same sessions. The connection has no offline queue:
 * while Redis is unreachable, commands reject at once (and unanswered ones after the command
 * timeout) with CONNECTION_SERVICE_UNAVAILABLE, and ioredis keeps reconnecting in the background.
 */
export class RedisSessionStore implements SessionStore {
  readonly driver = "redis";
  readonly prefix: string;
  /** The store's own connection; it is opened by `connect()` and closed by `close()`. */
  readonly client: Redis;
  private readonly connectTimeoutMs: number;
  private failing = false;

  constructor(options: RedisSessionStoreOptions) {
    this.prefix = options.prefix ?? "herald:session:";
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    this.client = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      commandTimeout: options.commandTimeoutMs ?? 2000,
      // ioredis arms this timer even for a socket already closed, and it would hold the process.
      disconnectTimeout: 100,
    });
    const logger = options.logger;
    // Without an "error" listener ioredis prints every failed reconnection attempt itself.
    this.client.on("error", (error: Error) => {
      if (!this.failing) logger?.warn({ err: error.message }, "session store: Redis connection failed; retrying");
      this.failing = true;
    });
    this.client.on("ready", () => {
      if (this.failing) logger?.info("session store: Redis connection restored");
      this.failing = false;
    });
  }

  /**
   * Opens the connection and waits until Redis is ready. Rejects with CONNECTION_SERVICE_UNAVAILABLE
   * on the first failure or after `connectTimeoutMs`; the client keeps retrying in the background.
   */
  async connect(): Promise<void> {
    if (this.client.status === "ready") return;
    if (this.client.status === "end") throw unavailable("the store is closed");
    // A failed attempt surfaces as an "error" event (which rejects the wait below) and is retried.
    if (this.client.status === "wait") this.client.connect().catch(() => undefined);
    try {
      await once(this.client, "ready", { signal: AbortSignal.timeout(this.connectTimeoutMs) });
    } catch (cause) {
      const reason = (cause as Error).name === "AbortError" ? `not ready within ${this.connectTimeoutMs} ms` : (cause as Error).message;
      throw unavailable(reason, cause);
    }
  }

  /** Resolves when Redis answers a PING; the health check of this store. */
  async ping(): Promise<void> {
    await this.command(() => this.client.ping());
  }

  async get(id: string, refreshTtlMs?: number): Promise<SessionData | undefined> {
    const key = this.prefix + id;
    const text =
      refreshTtlMs === undefined
        ? await this.command(() => this.client.get(key))
        : await this.command(async () => {
            const ttl = checkTtl(refreshTtlMs);
            const replies = await this.client.multi().get(key).pexpire(key, ttl).exec();
            const failed = replies?.find(([error]) => error);
            if (!replies || failed) throw failed?.[0] ?? new Error("the transaction was aborted");
            return replies[0]![1] as string | null;
          });
    return text === null ? undefined : decodeSessionData(text);
  }

  async set(id: string, data: SessionData, ttlMs: number): Promise<void> {
    const text = encodeSessionData(data);
    const ttl = checkTtl(ttlMs);
    await this.command(() => this.client.set(this.prefix + id, text, "PX", ttl));
  }

  async delete(id: string): Promise<void> {
    await this.command(() => this.client.del(this.prefix + id));
  }

  /**
   * The owner's index is a Redis set beside the sessions, without a TTL of its own (a session's
   * TTL moves on every read); ids whose session key has expired are removed from it here.
   */
  async addOwned(owner: string, id: string): Promise<void> {
    const index = this.ownerKey(owner);
    await this.command(async () => {
      const known = await this.client.smembers(index);
      const live = known.length === 0 ? [] : await this.liveAmong(known);
      const ended = known.filter((member) => !live.includes(member));
      const transaction = this.client.multi().sadd(index, id);
      if (ended.length > 0) transaction.srem(index, ...ended);
      await transaction.exec();
    });
  }

  async deleteOwned(owner: string, keepId?: string): Promise<void> {
    const index = this.ownerKey(owner);
    await this.command(async () => {
      const ids = (await this.client.smembers(index)).filter((id) => id !== keepId);
      const transaction = this.client.multi();
      if (ids.length > 0) transaction.del(...ids.map((id) => this.prefix + id));
      transaction.del(index);
      if (keepId !== undefined) transaction.sadd(index, keepId);
      await transaction.exec();
    });
  }

  async close(): Promise<void> {
    const client = this.client;
    if (client.status === "end") return;
    if (client.status === "ready") {
      const ended = new Promise((resolve) => client.once("end", resolve));
      await client.quit().catch(() => client.disconnect());
      await ended;
    } else {
      // Also cancels a pending reconnection attempt.
      client.disconnect();
    }
  }

  /** The key of an owner's index; a session id (base64url) never holds the ":" that keeps it apart from one. */
  private ownerKey(owner: string): string {
    return `${this.prefix}owner:${owner}`;
  }

  private async liveAmong(ids: readonly string[]): Promise<string[]> {
    const replies = await this.client.pipeline(ids.map((id) => ["exists", this.prefix + id])).exec();
    return ids.filter((_id, index) => replies?.[index]?.[1] === 1);
  }

  private async command<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (cause) {
      if (cause instanceof TypedError) throw cause;
      throw unavailable((cause as Error).message, cause);
    }
  }
}

function unavailable(reason: string, cause?: unknown): TypedError {
  return new TypedError({
    message: `The session store (Redis) is unavailable: ${reason}`,
    type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
    ...(cause === undefined ? {} : { cause }),
  });
}
