import { ErrorType, TypedError } from "../core/errors";
import { publishingTraced } from "./traced-payload";
import { firstIssue, schemaMismatch } from "../core/output-check";
import { encodeChannelEvent } from "./channel-event";
import { checkChannelName } from "./channel-name";
import type { ChannelRegistry } from "./channel-registry";
import type { PubSubDriver } from "./pubsub-driver";

export interface ChannelPublisherOptions {
  /** The app's channels: a message is checked against the `message` schema of the channel it goes to. */
  channels?: ChannelRegistry;
  /** Whether to check (CHECK_OUTPUTS: on outside production). */
  checkMessages?: boolean;
}

/**
 * Publishes messages to channels, from actions, tasks and initializers: inject it
 * (`constructor(private readonly publisher: ChannelPublisher)`). With Redis, a message reaches
 * the subscribers of every process.
 */
export class ChannelPublisher {
  constructor(
    private readonly driver: PubSubDriver,
    private readonly options: ChannelPublisherOptions = {},
  ) {}

  /**
   * Sends `message` (any JSON value) to every current subscriber of `channel`, as
   * `{ messageType: "message", channel, message }`. Rejects with CONNECTION_CHANNEL_VALIDATION for
   * a name failing CHANNEL_NAME_PATTERN, CONNECTION_SERVER_ERROR (when checking) for a message the
   * channel's `message` schema does not describe, and CONNECTION_SERVICE_UNAVAILABLE when Redis is down.
   */
  async publish(channel: string, message: unknown): Promise<void> {
    const name = checkChannelName(channel);
    const schema = this.options.checkMessages ? this.options.channels?.match(name)?.definition.message : undefined;
    if (schema) {
      const refused = await schemaMismatch(schema, message, (error) =>
        new TypedError({
          message: `The message published to channel "${name}" is not what its message schema describes, ${firstIssue(error)}`,
          type: ErrorType.CONNECTION_SERVER_ERROR,
          key: "message",
          cause: error,
        }),
      );
      if (refused) throw refused;
    }
    await publishingTraced(name, encodeChannelEvent({ messageType: "message", channel: name, message }), (payload) => this.driver.publish(name, payload));
  }
}
