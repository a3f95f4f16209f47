import type Redis from "ioredis";
import type { Logger } from "../core/logger";
import { RedisConnection } from "../redis/connection";
import { defineScripts } from "../redis/scripts";
import { ISSUED } from "./client-roster";
import { alreadyConsumed } from "./consume-once";
import { DEFAULT_CLIENT_LIFETIME, type ClientLifetime } from "./limit-settings";
import { GRANTABLE, type Adapter, type AdapterPayload, type OAuthStorage } from "./storage";

/** Reads a client's hash and pushes its expiry on: by the idle lifetime once it has had a token, else the pending one. */
const FIND_CLIENT = `
local record = redis.call("HGETALL", KEYS[1])
if #record == 0 then return record end
local ttl = ARGV[1]
if redis.call("HEXISTS", KEYS[1], "issued") == 1 then ttl = ARGV[2] end
redis.call("EXPIRE", KEYS[1], ttl, "GT")
return record`;

/** Marks a client as having had a token and keeps it the idle lifetime from now, without recreating one that is gone. */
const CLIENT_ISSUED = `
if redis.call("EXISTS", KEYS[1]) == 1 then
  redis.call("HSET", KEYS[1], "issued", "1")
  redis.call("EXPIRE", KEYS[1], ARGV[1])
end
return 0`;

/** Marks a record consumed, once: 1 when this call did, 0 when it was consumed already or is gone. */
const CONSUME = `
if redis.call("EXISTS", KEYS[1]) == 0 then return 0 end
return redis.call("HSETNX", KEYS[1], "consumed", ARGV[1])`;

type ClientCommands = Redis & {
  heraldOAuthFindClient(key: string, pendingTtl: number, idleTtl: number): Promise<string[]>;
  heraldOAuthClientIssued(key: string, idleTtl: number): Promise<number>;
  heraldOAuthConsume(key: string, at: number): Promise<number>;
};

/**
 * The authorization server's records in Redis, shared by every process on it: a hash per record
 * (`<prefix><model>:<id>`, its JSON and when it was consumed) expiring with it, a set per grant
 * naming its records, and pointers from an interaction session's uid and a device's user code.
 * A registered client's key expires unless it is used, sooner until a token is issued to it.
 */
export class RedisOAuthStorage implements OAuthStorage {
  readonly driver = "redis";
  private readonly connection: RedisConnection<ClientCommands>;

  constructor(
    url: string,
    private readonly prefix: string,
    logger?: Logger,
    private readonly clientLifetime: ClientLifetime = DEFAULT_CLIENT_LIFETIME,
  ) {
    this.connection = new RedisConnection({ url, service: "the authorization server's storage", ...(logger ? { logger } : {}) });
    defineScripts(this.connection.client, {
      heraldOAuthFindClient: { keys: 1, lua: FIND_CLIENT },
      heraldOAuthClientIssued: { keys: 1, lua: CLIENT_ISSUED },
      heraldOAuthConsume: { keys: 1, lua: CONSUME },
    });
  }

  adapter(model: string): Adapter {
    const key = (id: string) => `${this.prefix}${model}:${id}`;
    const grantKey = (grantId: string) => `${this.prefix}grant:${grantId}`;
    const { pending, idle } = this.clientLifetime;
    const read = async (recordKey: string | null): Promise<AdapterPayload | undefined> => {
      if (!recordKey) return undefined;
      const record = model === "Client" ? await this.findClient(recordKey) : await this.connection.command((client) => client.hgetall(recordKey));
      if (!record.payload) return undefined;
      const payload = JSON.parse(record.payload) as AdapterPayload;
      return record.consumed ? { ...payload, consumed: Number(record.consumed) } : payload;
    };
    return {
      upsert: async (id, payload, expiresIn) => {
        const recordKey = key(id);
        const lifetime = model === "Client" ? pending : expiresIn;
        await this.connection.command((client) => {
          const multi = client.multi().del(recordKey).hset(recordKey, "payload", JSON.stringify(payload));
          if (lifetime) multi.expire(recordKey, lifetime);
          if (payload.grantId && GRANTABLE.has(model)) {
            const index = grantKey(payload.grantId);
            multi.sadd(index, recordKey);
            // The index lives as long as its longest-lived record: extended, never shortened.
            if (expiresIn) multi.expire(index, expiresIn, "GT").expire(index, expiresIn, "NX");
          }
          for (const [kind, value] of [["sessionUid", payload.uid], ["userCode", payload.userCode]] as const) {
            if (!value) continue;
            const pointer = `${this.prefix}${kind}:${value}`;
            multi.set(pointer, recordKey);
            if (expiresIn) multi.expire(pointer, expiresIn);
          }
          return multi.exec();
        });
        if (ISSUED.has(model) && payload.clientId) {
          await this.connection.command((client) => client.heraldOAuthClientIssued(`${this.prefix}Client:${payload.clientId}`, idle));
        }
      },
      find: (id) => read(key(id)),
      findByUid: async (uid) => read(await this.connection.command((client) => client.get(`${this.prefix}sessionUid:${uid}`))),
      findByUserCode: async (code) => read(await this.connection.command((client) => client.get(`${this.prefix}userCode:${code}`))),
      consume: async (id) => {
        const marked = await this.connection.command((client) => client.heraldOAuthConsume(key(id), Math.floor(Date.now() / 1000)));
        if (marked !== 1) throw alreadyConsumed(model);
      },
      destroy: async (id) => {
        await this.connection.command((client) => client.del(key(id)));
      },
      revokeByGrantId: async (grantId) => {
        const index = grantKey(grantId);
        const members = await this.connection.command((client) => client.smembers(index));
        const own = members.filter((member) => member.startsWith(`${this.prefix}${model}:`));
        if (own.length === 0) return;
        await this.connection.command((client) => client.multi().del(...own).srem(index, ...own).exec());
      },
    };
  }

  private async findClient(recordKey: string): Promise<Record<string, string>> {
    const { pending, idle } = this.clientLifetime;
    const flat = await this.connection.command((client) => client.heraldOAuthFindClient(recordKey, pending, idle));
    const record: Record<string, string> = {};
    for (let at = 0; at < flat.length; at += 2) record[flat[at]!] = flat[at + 1]!;
    return record;
  }

  connect(): Promise<void> {
    return this.connection.connect();
  }

  ping(): Promise<void> {
    return this.connection.ping();
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
