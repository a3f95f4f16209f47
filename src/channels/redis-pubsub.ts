import Redis from "ioredis";
import type { Logger } from "../core/logger";
import { PubSubDriver, PubSubHandler } from "./pubsub-driver";
import { closeClient, connectClient, redisCommand } from "./redis-connection";

export interface RedisPubSubOptions {
  /** Where Redis listens, as a `redis://` or `rediss://` URL. */
  url: string;
  /** Put before every channel name (and presence key); processes sharing it share channels. Default `herald:channels:`. */
  prefix?: string;
  /** How long a command may go unanswered before it rejects; default 2000 ms. */
  commandTimeoutMs?: number;
  /** How long `connect()` waits for Redis; default 5000 ms. */
  connectTimeoutMs?: number;
  /** Where connection loss and recovery are reported. */
  logger?: Logger;
}

/**
 * Pub/sub over Redis, so a payload published in one process reaches the subscribers of every
 * process on the same Redis and prefix. It holds two connections: `client` for commands and
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
  private readonly connectTimeoutMs: number;
  private readonly handlers: PubSubHandler[] = [];

  constructor(options: RedisPubSubOptions) {
    this.prefix = options.prefix ?? "herald:channels:";
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    // A short disconnectTimeout: ioredis arms it even for a socket already closed, and it would hold the process.
    const common = { lazyConnect: true, enableOfflineQueue: false, commandTimeout: options.commandTimeoutMs ?? 2000, disconnectTimeout: 100 };
    const connectionName = this.prefix.replace(/[^A-Za-z0-9:._-]/g, "_");
    this.client = new Redis(options.url, { ...common, connectionName: `${connectionName}client` });
    this.subscriber = new Redis(options.url, { ...common, connectionName: `${connectionName}subscriber` });
    this.subscriber.on("message", (redisChannel: string, payload: string) => {
      if (!redisChannel.startsWith(this.prefix)) return;
      const channel = redisChannel.slice(this.prefix.length);
      for (const handler of this.handlers) handler(channel, payload);
    });
    for (const [role, connection] of [
      ["commands", this.client],
      ["subscriber", this.subscriber],
    ] as const) {
      let failing = false;
      // Without an "error" listener ioredis prints every failed reconnection attempt itself.
      connection.on("error", (error: Error) => {
        if (!failing) options.logger?.warn({ err: error.message, connection: role }, "channels: Redis connection failed; retrying");
        failing = true;
      });
      connection.on("ready", () => {
        if (failing) options.logger?.info({ connection: role }, "channels: Redis connection restored");
        failing = false;
      });
    }
  }

  async connect(): Promise<void> {
    await Promise.all([connectClient(this.client, this.connectTimeoutMs), connectClient(this.subscriber, this.connectTimeoutMs)]);
  }

  async publish(channel: string, payload: string): Promise<void> {
    await redisCommand(() => this.client.publish(this.prefix + channel, payload));
  }

  async subscribe(channel: string): Promise<void> {
    await redisCommand(() => this.subscriber.subscribe(this.prefix + channel));
  }

  async unsubscribe(channel: string): Promise<void> {
    await redisCommand(() => this.subscriber.unsubscribe(this.prefix + channel));
  }

  onMessage(handler: PubSubHandler): void {
    this.handlers.push(handler);
  }

  async ping(): Promise<void> {
    await redisCommand(() => this.client.ping());
  }

  async close(): Promise<void> {
    await Promise.all([closeClient(this.subscriber), closeClient(this.client)]);
  }
}
