import { encodeChannelEvent } from "./channel-event";
import { checkChannelName } from "./channel-name";
import type { PubSubDriver } from "./pubsub-driver";

/**
 * Publishes messages to channels, from actions, tasks and initializers: inject it
 * (`constructor(private readonly publisher: ChannelPublisher)`). With Redis, a message reaches
 * the subscribers of every process.
 */
export class ChannelPublisher {
  constructor(private readonly driver: PubSubDriver) {}

  /**
   * Sends `message` (any JSON value) to every current subscriber of `channel`, as
   * `{ messageType: "message", channel, message }`. Rejects with CONNECTION_CHANNEL_VALIDATION for
   * a name failing CHANNEL_NAME_PATTERN, and CONNECTION_SERVICE_UNAVAILABLE when Redis is down.
   */
  async publish(channel: string, message: unknown): Promise<void> {
    const name = checkChannelName(channel);
    await this.driver.publish(name, encodeChannelEvent({ messageType: "message", channel: name, message }));
  }
}
