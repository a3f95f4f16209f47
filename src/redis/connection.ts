import { once } from "node:events";
import type Redis from "ioredis";
import type { Logger } from "../core/logger";
import { closeRedis } from "./close";
import { redisCommand, redisUnavailable } from "./failure";
import { reconnectDelayMs } from "./reconnect";

export interface RedisConnectionOptions {
  /** Where Redis listens, as a `redis://` or `rediss://` URL. */
  url: string;
  /** What the connection serves, in its errors and log lines: "the session store", "channels" … */
  service: string;
  /** The connection's name in Redis (CLIENT SETNAME), to find it in CLIENT LIST. */
  name?: string;
  /** How long a command may go unanswered before it rejects; default 2000 ms. */
  commandTimeoutMs?: number;
  /** How long `connect()` waits for Redis to be ready; default 5000 ms. */
  connectTimeoutMs?: number;
  /** Where the loss and the return of the connection are reported, once each. */
  logger?: Logger;
}

/**
 * One Redis connection with Herald's one policy. It opens when its owner says (`connect()` at
 * boot, or `opened()` at first use), never by itself. It has no offline queue: while Redis is
 * unreachable a command rejects at once, one sent before the connection dropped rejects then
 * (never sent twice), and one Redis does not answer rejects after the command timeout, all as
 * 503 CONNECTION_SERVICE_UNAVAILABLE; meanwhile it reconnects in the background (see
 * `reconnectDelayMs`), for ever, until `close()`.
 */
export class RedisConnection<Client extends Redis = Redis> {
  readonly client: Client;
  readonly service: string;
  private readonly connectTimeoutMs: number;
  private opening: Promise<void> | undefined;

  constructor(options: RedisConnectionOptions) {
    this.service = options.service;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    // Required on first use: a process without Redis never loads ioredis (docs/architecture.md).
    const RedisClient = (require("ioredis") as typeof import("ioredis")).default;
    this.client = new RedisClient(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: reconnectDelayMs,
      commandTimeout: options.commandTimeoutMs ?? 2000,
      connectTimeout: this.connectTimeoutMs,
      // ioredis arms this timer even for a socket already closed, and it would hold the process.
      disconnectTimeout: 100,
      ...(options.name === undefined ? {} : { connectionName: options.name }),
    }) as Client;
    const { logger } = options;
    const fields = { service: this.service, ...(options.name === undefined ? {} : { connection: options.name }) };
    let failing = false;
    // Without an "error" listener ioredis prints every failed reconnection attempt itself.
    this.client.on("error", (error: Error) => {
      if (!failing) logger?.warn({ ...fields, err: error.message }, "Redis connection failed; retrying");
      failing = true;
    });
    this.client.on("ready", () => {
      if (failing) logger?.info(fields, "Redis connection restored");
      failing = false;
    });
  }

  /**
   * Opens the connection and waits until Redis is ready. Rejects with CONNECTION_SERVICE_UNAVAILABLE
   * on the first failure or after the connect timeout; the connection keeps retrying in the background.
   */
  async connect(): Promise<void> {
    const client = this.client;
    if (client.status === "ready") return;
    if (client.status === "end") throw redisUnavailable(this.service, new Error("the connection is closed"));
    // A failed attempt surfaces as an "error" event (which rejects the wait below) and is retried.
    if (client.status === "wait") client.connect().catch(() => undefined);
    try {
      await once(client, "ready", { signal: AbortSignal.timeout(this.connectTimeoutMs) });
    } catch (cause) {
      const timedOut = (cause as Error).name === "AbortError";
      throw redisUnavailable(this.service, timedOut ? new Error(`not ready within ${this.connectTimeoutMs} ms`, { cause }) : cause);
    }
  }

  /**
   * For an owner that connects at first use: the first call opens the connection and resolves when
   * that first attempt has ended, either way; later calls resolve at once. Commands after it fail
   * fast while Redis is unreachable, as ever.
   */
  opened(): Promise<void> {
    return (this.opening ??= this.connect().catch(() => undefined));
  }

  /** Runs commands on the client; a Redis failure rejects with CONNECTION_SERVICE_UNAVAILABLE. */
  command<T>(send: (client: Client) => Promise<T>): Promise<T> {
    return redisCommand(this.service, () => send(this.client));
  }

  /** Resolves when Redis answers a PING. */
  async ping(): Promise<void> {
    await this.command((client) => client.ping());
  }

  /** Ends the connection, and any reconnection; a closed connection does not open again. */
  close(): Promise<void> {
    return closeRedis(this.client);
  }
}
