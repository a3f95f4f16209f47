import { Channel, type Connection } from "herald";

/** The "{{channelName}}" channel: WebSocket clients subscribe to it and receive what is published on it. */
export class {{className}} extends Channel {
  // A string is one channel; a RegExp (such as /^{{channelName}}:.+$/) is a family of channels.
  name = "{{channelName}}";

  async authorize(_channel: string, _connection: Connection): Promise<boolean> {
    // Decide who may subscribe: return false, or throw a TypedError, to refuse.
    return true;
  }
}
