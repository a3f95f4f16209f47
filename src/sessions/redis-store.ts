import type Redis from "ioredis";
import type { Logger } from "../core/logger";
import { RedisConnection } from "../redis/connection";
import { defineScripts } from "../redis/scripts";
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
 * which a single Redis (not a cluster) allows. The connection is a RedisConnection: while Redis is
 * unreachable, commands reject at once (and unanswered ones after the command timeout) with
 * CONNECTION_SERVICE_UNAVAILABLE, and it keeps reconnecting in the background.
 */
export class RedisSessionStore implements SessionStore {
  readonly driver = "redis";
  readonly prefix: string;
  /** The store's own connection; it is opened by `connect()` and closed by `close()`. */
  readonly client: SessionCommands;
  private readonly connection: RedisConnection<SessionCommands>;

  constructor(options: RedisSessionStoreOptions) {
    this.prefix = options.prefix ?? "herald:session:";
    this.connection = new RedisConnection({ ...options, service: "the session store" });
    this.client = this.connection.client;
    defineScripts(this.client, {
      heraldSessionGetRefresh: { keys: 2, lua: GET_REFRESH },
      heraldSessionSet: { keys: 2, lua: SET },
      heraldSessionAddOwned: { keys: 3, lua: ADD_OWNED },
      heraldSessionDeleteOwned: { keys: 1, lua: DELETE_OWNED },
    });
  }

  /**
   * Opens the connection and waits until Redis is ready. Rejects with CONNECTION_SERVICE_UNAVAILABLE
   * on the first failure or after `connectTimeoutMs`; the client keeps retrying in the background.
   */
  connect(): Promise<void> {
    return this.connection.connect();
  }

  /** Resolves when Redis answers a PING; the health check of this store. */
  ping(): Promise<void> {
    return this.connection.ping();
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

  close(): Promise<void> {
    return this.connection.close();
  }

  /** The key of an owner's index; a session id (base64url) never holds the ":" that keeps it apart from one. */
  private ownerKey(owner: string): string {
    return `${this.prefix}owner:${owner}`;
  }

  /** The key naming an owned session's index; "owner-of:" keeps it apart from session ids and indexes. */
  private pointerKey(id: string): string {
    return `${this.prefix}owner-of:${id}`;
  }

  private command<T>(send: () => Promise<T>): Promise<T> {
    return this.connection.command(send);
  }
}
