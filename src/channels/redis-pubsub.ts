import type Redis from "ioredis";
import type { Logger } from "../core/logger";
import { RedisConnection } from "../redis/connection";
import { redisDatabaseNumber } from "../redis/database-number";
import { pingRedis } from "../redis/health";
import { PubSubDriver, PubSubHandler } from "./pubsub-driver";

export interface RedisPubSubOptions {
  /** Where Redis listens, as a `redis://` or `rediss://` URL. */
  url: string;
  /**
   * Put before every channel name (and presence key); processes sharing it share channels, on
   * whichever database of the Redis they are. Default `herald:channels:<database number>:`.
   */
  prefix?: string;
  /** How long a command may go unanswered before it rejects; default 2000 ms. */
  commandTimeoutMs?: number;
  /** How long `connect()` waits for Redis; default 5000 ms. */
  connectTimeoutMs?: number;
  /** Where connection loss and recovery are reported. */
  logger?: Logger;
}

/** What channel errors and log lines name. */
export const CHANNELS_SERVICE = "channels";

/**
 * Pub/sub over Redis, so a payload published in one process reaches the subscribers of every
 * process on the same Redis and prefix. It holds two RedisConnections: `client` for commands and
 * `subscriber`, which Redis reserves for receiving. Both reconnect by themselves, and the
 * subscriber subscribes again to its channels when it is back. Neither queues commands while
 * disconnected: they reject at once with CONNECTION_SERVICE_UNAVAILABLE.
 */
export class RedisPubSub implements PubSubDriver {
  readonly driver = "redis";
  readonly prefix: string;
  /** The command connection, also used by RedisPresenceStore. */
  readonly client: Redis;
  readonly subscriber: Redis;
  private readonly commands: RedisConnection;
  private readonly receiving: RedisConnection;
  private readonly handlers: PubSubHandler[] = [];

  constructor(options: RedisPubSubOptions) {
    this.prefix = options.prefix ?? `herald:channels:${redisDatabaseNumber(options.url)}:`;
    const connectionName = this.prefix.replace(/[^A-Za-z0-9:._-]/g, "_");
    const common = { ...options, service: CHANNELS_SERVICE };
    this.commands = new RedisConnection({ ...common, name: `${connectionName}client` });
    this.receiving = new RedisConnection({ ...common, name: `${connectionName}subscriber` });
    this.client = this.commands.client;
    this.subscriber = this.receiving.client;
    this.subscriber.on("message", (redisChannel: string, payload: string) => {
      if (!redisChannel.startsWith(this.prefix)) return;
      const channel = redisChannel.slice(this.prefix.length);
      for (const handler of this.handlers) handler(channel, payload);
    });
  }

  async connect(): Promise<void> {
    await Promise.all([this.commands.connect(), this.receiving.connect()]);
  }

  async publish(channel: string, payload: string): Promise<void> {
    await this.commands.command((client) => client.publish(this.prefix + channel, payload));
  }

  async subscribe(channel: string): Promise<void> {
    await this.receiving.command((client) => client.subscribe(this.prefix + channel));
  }

  async unsubscribe(channel: string): Promise<void> {
    await this.receiving.command((client) => client.unsubscribe(this.prefix + channel));
  }

  onMessage(handler: PubSubHandler): void {
    this.handlers.push(handler);
  }

  /** Both connections answer: a subscriber that is down misses what is published meanwhile. */
  ping(): Promise<void> {
    return pingRedis(this.commands, this.receiving);
  }

  async close(): Promise<void> {
    await Promise.all([this.receiving.close(), this.commands.close()]);
  }
}
