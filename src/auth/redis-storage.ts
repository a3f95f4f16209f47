import type { Logger } from "../core/logger";
import { RedisConnection } from "../redis/connection";
import { GRANTABLE, type Adapter, type AdapterPayload, type OAuthStorage } from "./storage";

/**
 * The authorization server's records in Redis, shared by every process on it: a hash per record
 * (`<prefix><model>:<id>`, its JSON and when it was consumed) expiring with it, a set per grant
 * naming its records, and pointers from an interaction session's uid and a device's user code.
 */
export class RedisOAuthStorage implements OAuthStorage {
  readonly driver = "redis";
  private readonly connection: RedisConnection;

  constructor(
    url: string,
    private readonly prefix: string,
    logger?: Logger,
  ) {
    this.connection = new RedisConnection({ url, service: "the authorization server's storage", ...(logger ? { logger } : {}) });
  }

  adapter(model: string): Adapter {
    const key = (id: string) => `${this.prefix}${model}:${id}`;
    const grantKey = (grantId: string) => `${this.prefix}grant:${grantId}`;
    const read = async (recordKey: string | null): Promise<AdapterPayload | undefined> => {
      if (!recordKey) return undefined;
      const record = await this.connection.command((client) => client.hgetall(recordKey));
      if (!record.payload) return undefined;
      const payload = JSON.parse(record.payload) as AdapterPayload;
      return record.consumed ? { ...payload, consumed: Number(record.consumed) } : payload;
    };
    return {
      upsert: async (id, payload, expiresIn) => {
        const recordKey = key(id);
        await this.connection.command((client) => {
          const multi = client.multi().del(recordKey).hset(recordKey, "payload", JSON.stringify(payload));
          if (expiresIn) multi.expire(recordKey, expiresIn);
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
      },
      find: (id) => read(key(id)),
      findByUid: async (uid) => read(await this.connection.command((client) => client.get(`${this.prefix}sessionUid:${uid}`))),
      findByUserCode: async (code) => read(await this.connection.command((client) => client.get(`${this.prefix}userCode:${code}`))),
      consume: async (id) => {
        // Known gap: not atomic with the read that preceded it, so two truly concurrent redemptions could both pass.
        await this.connection.command((client) => client.hset(key(id), "consumed", Math.floor(Date.now() / 1000)));
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
