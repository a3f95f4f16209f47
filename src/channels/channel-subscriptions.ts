import type { Connection } from "../core/connection";
import { ErrorType, isTypedError, TypedError } from "../core/errors";
import type { Logger } from "../core/logger";
import type { ChannelBroker, ChannelListener } from "./channel-broker";
import { checkChannelName } from "./channel-name";
import type { ChannelPresence } from "./channel-presence";
import type { ChannelRegistry, RegisteredChannel } from "./channel-registry";

/** One connection's live subscription to one channel. */
export interface ChannelSubscription {
  readonly channel: string;
  /** The connection's presence key on a presence channel. */
  readonly presenceKey?: string;
  /** Ends it: presence leave, no more events, then the channel middleware's `runAfter`. */
  close(): Promise<void>;
}

/**
 * Subscribes connections to channels, for any transport that holds connections open: checks the
 * name, finds the app's channel for it, runs its middleware and `authorize`, starts delivery and
 * records presence.
 */
export class ChannelSubscriptions {
  private openSubscriptions = 0;

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly broker: ChannelBroker,
    private readonly presence: ChannelPresence,
    private readonly options: { production: boolean; logger?: Logger },
  ) {}

  /**
   * Rejects with CONNECTION_CHANNEL_VALIDATION when the name fails CHANNEL_NAME_PATTERN or no
   * channel of the app matches it, and with CONNECTION_CHANNEL_AUTHORIZATION (or the thrown
   * TypedError) when a middleware or `authorize` refuses.
   */
  async subscribe(channelName: unknown, connection: Connection, listener: ChannelListener): Promise<ChannelSubscription> {
    const channel = checkChannelName(channelName);
    const entry = this.registry.match(channel);
    if (!entry) {
      throw new TypedError({
        message: `No channel is defined for "${channel}"`,
        type: ErrorType.CONNECTION_CHANNEL_VALIDATION,
        key: "channel",
        value: channel,
      });
    }
    await this.authorize(entry, channel, connection);
    const presenceKey = entry.definition.presenceKey ? String(await entry.definition.presenceKey(connection, channel)) : undefined;
    const stopListening = await this.broker.subscribe(channel, listener);
    const member = presenceKey === undefined ? undefined : { channel, presenceKey, memberId: connection.id };
    if (member) {
      try {
        await this.presence.join(member);
      } catch (error) {
        await stopListening();
        throw error;
      }
    }
    let closing: Promise<void> | undefined;
    this.openSubscriptions++;
    return {
      channel,
      ...(presenceKey === undefined ? {} : { presenceKey }),
      close: () => {
        if (!closing) this.openSubscriptions--;
        return (closing ??= this.end(entry, channel, connection, stopListening, member));
      },
    };
  }

  /** The subscriptions open in this process, over every transport. */
  get open(): number {
    return this.openSubscriptions;
  }

  private async authorize(entry: RegisteredChannel, channel: string, connection: Connection): Promise<void> {
    try {
      for (const middleware of entry.middleware) await middleware.runBefore?.(channel, connection);
      if ((await entry.definition.authorize?.(channel, connection)) === false) throw this.refusal(channel);
    } catch (thrown) {
      if (isTypedError(thrown)) throw thrown;
      const detail = thrown instanceof Error && !this.options.production ? thrown.message : "";
      throw this.refusal(channel, detail, thrown);
    }
  }

  private refusal(channel: string, detail = "", cause?: unknown): TypedError {
    return new TypedError({
      message: detail || `Not allowed to subscribe to "${channel}"`,
      type: ErrorType.CONNECTION_CHANNEL_AUTHORIZATION,
      key: "channel",
      value: channel,
      ...(cause === undefined ? {} : { cause }),
    });
  }

  private async end(
    entry: RegisteredChannel,
    channel: string,
    connection: Connection,
    stopListening: () => Promise<void>,
    member: { channel: string; presenceKey: string; memberId: string } | undefined,
  ): Promise<void> {
    const logger = this.options.logger;
    if (member) await this.presence.leave(member).catch((error: unknown) => logger?.warn({ err: error, channel }, "channels: presence leave failed"));
    await stopListening();
    for (const middleware of [...entry.middleware].reverse()) {
      try {
        await middleware.runAfter?.(channel, connection);
      } catch (error) {
        logger?.error({ err: error, channel, middleware: middleware.name }, "channels: a middleware's runAfter failed");
      }
    }
  }
}
