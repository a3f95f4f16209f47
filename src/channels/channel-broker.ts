import type { Logger } from "../core/logger";
import type { PubSubDriver } from "./pubsub-driver";
import { deliveringTraced, isTracedPayload, untracedPayload } from "./traced-payload";

/** Receives a channel's events as the JSON text clients get (see ChannelEvent). */
export type ChannelListener = (eventText: string) => void;

interface ChannelState {
  listeners: Set<ChannelListener>;
  /** Settles once the driver has subscribed to the channel for these listeners. */
  ready: Promise<void>;
}

/**
 * Fans the driver's payloads out to this process's listeners: the driver subscribes to a channel
 * once, when its first local listener arrives, and unsubscribes when its last one leaves.
 * Subscribe and unsubscribe calls of one channel reach the driver in order.
 */
export class ChannelBroker {
  private readonly channels = new Map<string, ChannelState>();
  private readonly driverQueue = new Map<string, Promise<void>>();

  constructor(
    private readonly driver: PubSubDriver,
    private readonly logger?: Logger,
  ) {
    driver.onMessage((channel, payload) => this.deliver(channel, payload));
  }

  /** How many local listeners the channel has. */
  listenerCount(channel: string): number {
    return this.channels.get(channel)?.listeners.size ?? 0;
  }

  /** Resolves, with the function that removes the listener, once the listener receives the channel's events. */
  async subscribe(channel: string, listener: ChannelListener): Promise<() => Promise<void>> {
    let state = this.channels.get(channel);
    if (!state) {
      const created: ChannelState = { listeners: new Set(), ready: Promise.resolve() };
      created.ready = this.queue(channel, async () => {
        if (this.channels.get(channel) === created) await this.driver.subscribe(channel);
      });
      this.channels.set(channel, (state = created));
    }
    state.listeners.add(listener);
    try {
      await state.ready;
    } catch (error) {
      void this.remove(channel, state, listener);
      throw error;
    }
    let removed = false;
    return async () => {
      if (removed) return;
      removed = true;
      await this.remove(channel, state, listener);
    };
  }

  private async remove(channel: string, state: ChannelState, listener: ChannelListener): Promise<void> {
    state.listeners.delete(listener);
    if (state.listeners.size || this.channels.get(channel) !== state) return;
    this.channels.delete(channel);
    await this.queue(channel, async () => {
      if (!this.channels.has(channel)) await this.driver.unsubscribe(channel);
    }).catch((error: unknown) => this.logger?.warn({ err: error, channel }, "channels: could not unsubscribe"));
  }

  private queue(channel: string, operation: () => Promise<void>): Promise<void> {
    const previous = this.driverQueue.get(channel) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(operation);
    this.driverQueue.set(channel, next);
    const forget = () => {
      if (this.driverQueue.get(channel) === next) this.driverQueue.delete(channel);
    };
    next.then(forget, forget);
    return next;
  }

  private deliver(channel: string, payload: string): void {
    const state = this.channels.get(channel);
    if (!state) return;
    if (!isTracedPayload(payload)) return this.deliverTo(state, channel, payload);
    const { eventText, trace } = untracedPayload(payload);
    deliveringTraced(channel, trace, () => this.deliverTo(state, channel, eventText));
  }

  private deliverTo(state: ChannelState, channel: string, eventText: string): void {
    for (const listener of state.listeners) {
      try {
        listener(eventText);
      } catch (error) {
        this.logger?.error({ err: error, channel }, "channels: a listener failed");
      }
    }
  }
}
