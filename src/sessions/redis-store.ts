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
 * Keeps an owned session's index at least as long as the session: the session's back-pointer
 * (KEYS[2]) names its owner's index, and both get the session's new TTL (ARGV[1]) with it.
 */
const FOLLOW_SESSION = `
local index = redis.call("GET", KEYS[2])
if index then
  redis.call("PEXPIRE", KEYS[2], ARGV[1])
  if redis.call("PTTL", index) < tonumber(ARGV[1]) then redis.call("PEXPIRE", index, ARGV[1]) end
end`;

/** GET with a refresh: KEYS[1] the session, KEYS[2] its back-pointer; ARGV[1] the TTL. */
const GET_REFRESH = `
local text = redis.call("GET", KEYS[1])
if not text then return false end
redis.call("PEXPIRE", KEYS[1], ARGV[1])
${FOLLOW_SESSION}
return text`;

/** SET with a TTL: KEYS[1] the session, KEYS[2] its back-pointer; ARGV[1] the TTL, ARGV[2] the JSON. */
const SET = `
redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[1])
${FOLLOW_SESSION}
return 1`;

/**
 * Records a session in its owner's index: KEYS[1] the index, KEYS[2] the session, KEYS[3] its
 * back-pointer; ARGV[1] the id, ARGV[2] the prefix. Ids of ended sessions leave the index, and
 * the index expires no sooner than any session in it.
 */
const ADD_OWNED = `
local ttl = redis.call("PTTL", KEYS[2])
if ttl <= 0 then return 0 end
for _, member in ipairs(redis.call("SMEMBERS", KEYS[1])) do
  if redis.call("EXISTS", ARGV[2] .. member) == 0 then redis.call("SREM", KEYS[1], member) end
end
redis.call("SADD", KEYS[1], ARGV[1])
redis.call("SET", KEYS[3], KEYS[1], "PX", ttl)
if redis.call("PTTL", KEYS[1]) < ttl then redis.call("PEXPIRE", KEYS[1], ttl) end
return 1`;

/**
 * Ends an owner's sessions but ARGV[2] (empty: none kept): KEYS[1] the index; ARGV[1] the prefix.
 * The kept session alone stays in the index, which then expires with it.
 */
const DELETE_OWNED = `
local keep = ARGV[2]
for _, member in ipairs(redis.call("SMEMBERS", KEYS[1])) do
  if member ~= keep then redis.call("DEL", ARGV[1] .. member, ARGV[1] .. "owner-of:" .. member) end
end
redis.call("DEL", KEYS[1])
if keep ~= "" then
  local ttl = redis.call("PTTL", ARGV[1] .. keep)
  if ttl > 0 then
    redis.call("SADD", KEYS[1], keep)
    redis.call("PEXPIRE", KEYS[1], ttl)
    redis.call("SET", ARGV[1] .. "owner-of:" .. keep, KEYS[1], "PX", ttl)
  end
end
return 1`;

type SessionCommands = Redis & {
  heraldSessionGetRefresh(session: string, pointer: string, ttlMs: number): Promise<string | null>;
  heraldSessionSet(session: string, pointer: string, ttlMs: number, text: string): Promise<number>;
  heraldSessionAddOwned(index: string, session: string, pointer: string, id: string, prefix: string): Promise<number>;
  heraldSessionDeleteOwned(index: string, prefix: string, keepId: string): Promise<number>;
};

/**
 * Sessions in Redis, one string key per session holding its JSON, expiring with PX/PEXPIRE, so
 * every process on the same Redis sees the same sessions. An owner's index is a set of session ids
 * that expires no sooner than its longest-lived session: each owned session keeps a back-pointer
 * to it (`<prefix>owner-of:<id>`) with the session's TTL, and the scripts that read, write or own a
 * session move the index's expiry along with the session's. The scripts name keys they compute,
 * which a single Redis (not a cluster) allows. The connection has no offline queue:
 * while Redis is unreachable, commands reject at once (and unanswered ones after the command
 * timeout) with CONNECTION_SERVICE_UNAVAILABLE, and ioredis keeps reconnecting in the background.
 */
export class RedisSessionStore implements SessionStore {
  readonly driver = "redis";
  readonly prefix: string;
  /** The store's own connection; it is opened by `connect()` and closed by `close()`. */
  readonly client: SessionCommands;
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
    }) as SessionCommands;
    this.client.defineCommand("heraldSessionGetRefresh", { numberOfKeys: 2, lua: GET_REFRESH });
    this.client.defineCommand("heraldSessionSet", { numberOfKeys: 2, lua: SET });
    this.client.defineCommand("heraldSessionAddOwned", { numberOfKeys: 3, lua: ADD_OWNED });
    this.client.defineCommand("heraldSessionDeleteOwned", { numberOfKeys: 1, lua: DELETE_OWNED });
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
        : await this.command(() => this.client.heraldSessionGetRefresh(key, this.pointerKey(id), checkTtl(refreshTtlMs)));
    return text === null ? undefined : decodeSessionData(text);
  }

  async set(id: string, data: SessionData, ttlMs: number): Promise<void> {
    const text = encodeSessionData(data);
    const ttl = checkTtl(ttlMs);
    await this.command(() => this.client.heraldSessionSet(this.prefix + id, this.pointerKey(id), ttl, text));
  }

  async delete(id: string): Promise<void> {
    await this.command(() => this.client.del(this.prefix + id, this.pointerKey(id)));
  }

  /** A session that has already ended is not recorded. */
  async addOwned(owner: string, id: string): Promise<void> {
    await this.command(() => this.client.heraldSessionAddOwned(this.ownerKey(owner), this.prefix + id, this.pointerKey(id), id, this.prefix));
  }

  async deleteOwned(owner: string, keepId?: string): Promise<void> {
    await this.command(() => this.client.heraldSessionDeleteOwned(this.ownerKey(owner), this.prefix, keepId ?? ""));
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

  /** The key naming an owned session's index; "owner-of:" keeps it apart from session ids and indexes. */
  private pointerKey(id: string): string {
    return `${this.prefix}owner-of:${id}`;
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
