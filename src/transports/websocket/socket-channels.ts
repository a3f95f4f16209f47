import type { ChannelSubscription, ChannelSubscriptions } from "../../channels/channel-subscriptions";
import type { Connection } from "../../core/connection";
import { ErrorType, TypedError } from "../../core/errors";

/**
 * The channel side of one socket: its subscriptions, the subscribes still waiting for their
 * `authorize`, and the order of operations on each channel. Made on the socket's first channel
 * call: most sockets never make one.
 */
export class SocketChannels {
  private readonly subscriptions = new Map<string, ChannelSubscription>();
  /** Subscribe and unsubscribe of one channel run one after the other. */
  private readonly queue = new Map<string, Promise<void>>();
  /** Channels whose subscribe is waiting: they count towards the socket's bound. */
  private readonly reserved = new Set<string>();
  private closed = false;

  constructor(
    private readonly channels: ChannelSubscriptions,
    private readonly connection: Connection,
    private readonly maxSubscriptions: number,
    private readonly deliver: (eventText: string) => void,
  ) {}

  /** Subscribes the socket to `channel`; resolves with the reply's body, or throws the refusal. */
  async subscribe(channel: string): Promise<object> {
    const reply = { subscribed: { channel } };
    if (this.subscriptions.has(channel)) return reply;
    const { maxSubscriptions } = this;
    if (this.subscriptions.size + this.reserved.size >= maxSubscriptions) {
      throw new TypedError({
        message: `A connection may hold at most ${maxSubscriptions} subscriptions`,
        type: ErrorType.CONNECTION_CHANNEL_VALIDATION,
        key: "channel",
        value: channel,
      });
    }
    this.reserved.add(channel);
    let subscription: ChannelSubscription;
    try {
      subscription = await this.channels.subscribe(channel, this.connection, this.deliver);
    } finally {
      this.reserved.delete(channel);
    }
    if (this.closed) {
      await subscription.close();
      return reply;
    }
    this.subscriptions.set(channel, subscription);
    return reply;
  }

  async unsubscribe(channel: string): Promise<object> {
    const subscription = this.subscriptions.get(channel);
    this.subscriptions.delete(channel);
    await subscription?.close();
    return { unsubscribed: { channel } };
  }

  /** Runs `operation` after the operations on `channel` before it; what it throws goes to `failed`. */
  inOrder(channel: string, operation: () => Promise<void>, failed: (error: unknown) => void): Promise<void> {
    const previous = this.queue.get(channel) ?? Promise.resolve();
    const next = previous.then(operation).catch(failed);
    this.queue.set(channel, next);
    void next.then(() => {
      if (this.queue.get(channel) === next) this.queue.delete(channel);
    });
    return next;
  }

  /**
   * Ends the subscriptions held. A subscribe still waiting (on an `authorize` that asks a slow
   * service) is not waited for, so that a hung `authorize` cannot hold a closing socket, and
   * shutdown, for ever: it ends its own subscription when it finishes (see `subscribe`).
   */
  async close(): Promise<void> {
    this.closed = true;
    const subscriptions = [...this.subscriptions.values()];
    this.subscriptions.clear();
    await Promise.all(subscriptions.map((subscription) => subscription.close()));
  }
}
