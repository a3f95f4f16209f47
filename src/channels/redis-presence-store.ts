import type Redis from "ioredis";
import { PresenceDeparture, PresenceEntry, PresenceStore } from "./presence-store";
import { redisCommand } from "../redis/failure";
import { defineScripts } from "../redis/scripts";
import { CHANNELS_SERVICE } from "./redis-pubsub";
import { FORGET_IF_EMPTY, JOIN, LAPSED, LEAVE, PRESENT } from "./redis-presence-scripts";

export interface RedisPresenceStoreOptions {
  /** A connected (or connecting) command connection; the store does not close it. */
  client: Redis;
  /** Put before every key; default `herald:channels:`. */
  prefix?: string;
  /** How long a member stays present without a refresh; default 30000 ms. */
  ttlMs?: number;
}

interface PresenceCommands {
  heraldPresenceJoin(members: string, keys: string, index: string, member: string, key: string, ttl: number, channel: string): Promise<number>;
  heraldPresenceLeave(members: string, keys: string, member: string, key: string): Promise<number>;
  heraldPresenceLapsed(keys: string): Promise<string[]>;
  heraldPresencePresent(keys: string): Promise<string[]>;
  heraldPresenceForgetIfEmpty(keys: string, index: string, channel: string): Promise<number>;
}

/**
 * Presence in Redis, shared by every process on the same Redis and prefix. Each member is an
 * entry with an expiry that its process refreshes (see ChannelPresence); the members of a
 * process that stops refreshing lapse after `ttlMs`, and the next sweep, by any process, removes
 * them and reports the keys that left with them. Keys: a sorted set of presence keys per
 * channel, a sorted set of members per (channel, key), and a set of channels with presence.
 */
export class RedisPresenceStore implements PresenceStore {
  readonly driver = "redis";
  readonly prefix: string;
  readonly ttlMs: number;
  private readonly redis: Redis & PresenceCommands;

  constructor(options: RedisPresenceStoreOptions) {
    this.prefix = options.prefix ?? "herald:channels:";
    this.ttlMs = options.ttlMs ?? 30_000;
    defineScripts(options.client, {
      heraldPresenceJoin: { keys: 3, lua: JOIN },
      heraldPresenceLeave: { keys: 2, lua: LEAVE },
      heraldPresenceLapsed: { keys: 1, lua: LAPSED },
      heraldPresencePresent: { keys: 1, lua: PRESENT },
      heraldPresenceForgetIfEmpty: { keys: 2, lua: FORGET_IF_EMPTY },
    });
    this.redis = options.client as Redis & PresenceCommands;
  }

  async join(entry: PresenceEntry): Promise<boolean> {
    return (await presenceCommand(() => this.sendJoin(this.redis, entry))) === 1;
  }

  async leave({ channel, presenceKey, memberId }: PresenceEntry): Promise<boolean> {
    const left = await presenceCommand(() =>
      this.redis.heraldPresenceLeave(this.membersKey(channel, presenceKey), this.keysKey(channel), memberId, presenceKey),
    );
    return left === 1;
  }

  async members(channel: string): Promise<string[]> {
    return presenceCommand(() => this.redis.heraldPresencePresent(this.keysKey(channel)));
  }

  async refresh(entries: readonly PresenceEntry[]): Promise<PresenceEntry[]> {
    if (!entries.length) return [];
    const pipeline = this.redis.pipeline() as unknown as PresenceCommands & { exec(): Promise<[Error | null, unknown][] | null> };
    for (const entry of entries) this.sendJoin(pipeline, entry);
    const replies = await presenceCommand(() => pipeline.exec());
    const failed = replies?.find(([error]) => error);
    if (!replies || failed) await presenceCommand(() => Promise.reject(failed?.[0] ?? new Error("the pipeline was aborted")));
    return entries.filter((_, index) => replies![index]![1] === 1);
  }

  async sweep(): Promise<PresenceDeparture[]> {
    const departures: PresenceDeparture[] = [];
    const index = this.indexKey();
    const channels = await presenceCommand(() => this.redis.smembers(index));
    for (const channel of channels) {
      const keys = this.keysKey(channel);
      for (const presenceKey of await presenceCommand(() => this.redis.heraldPresenceLapsed(keys))) {
        const left = await presenceCommand(() => this.redis.heraldPresenceLeave(this.membersKey(channel, presenceKey), keys, "", presenceKey));
        if (left === 1) departures.push({ channel, presenceKey });
      }
      await presenceCommand(() => this.redis.heraldPresenceForgetIfEmpty(keys, index, channel));
    }
    return departures;
  }

  /** The client belongs to whoever passed it. */
  async close(): Promise<void> {}

  private sendJoin(target: PresenceCommands, { channel, presenceKey, memberId }: PresenceEntry): Promise<number> {
    return target.heraldPresenceJoin(
      this.membersKey(channel, presenceKey),
      this.keysKey(channel),
      this.indexKey(),
      memberId,
      presenceKey,
      this.ttlMs,
      channel,
    );
  }

  private keysKey(channel: string): string {
    return `${this.prefix}presence:${channel}`;
  }

  /** "#" cannot occur in a channel name, so no (channel, key) pair can produce another's key. */
  private membersKey(channel: string, presenceKey: string): string {
    return `${this.prefix}presence:${channel}#${presenceKey}`;
  }

  private indexKey(): string {
    return `${this.prefix}presence-channels`;
  }
}

/** A presence command whose Redis failure is CONNECTION_SERVICE_UNAVAILABLE. */
function presenceCommand<T>(send: () => Promise<T>): Promise<T> {
  return redisCommand(CHANNELS_SERVICE, send);
}
