import { PubSubDriver, PubSubHandler } from "./pubsub-driver";

/**
 * Pub/sub within this process: the default without Redis. Payloads are delivered on a later turn
 * of the event loop, in publish order, as a network driver would deliver them.
 */
export class InProcessPubSub implements PubSubDriver {
  readonly driver = "memory";
  private readonly subscribed = new Set<string>();
  private readonly handlers: PubSubHandler[] = [];

  async connect(): Promise<void> {}

  async publish(channel: string, payload: string): Promise<void> {
    if (!this.subscribed.has(channel)) return;
    setImmediate(() => {
      if (!this.subscribed.has(channel)) return;
      for (const handler of this.handlers) handler(channel, payload);
    });
  }

  async subscribe(channel: string): Promise<void> {
    this.subscribed.add(channel);
  }

  async unsubscribe(channel: string): Promise<void> {
    this.subscribed.delete(channel);
  }

  onMessage(handler: PubSubHandler): void {
    this.handlers.push(handler);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.subscribed.clear();
  }
}
