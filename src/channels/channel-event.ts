import { ErrorType, TypedError } from "../core/errors";

/** A message published to a channel, as every subscriber receives it. */
export interface ChannelMessageEvent {
  messageType: "message";
  channel: string;
  message: unknown;
}

/** A presence key arriving on a presence channel, or its last connection leaving. */
export interface ChannelPresenceEvent {
  messageType: "presence";
  channel: string;
  event: "join" | "leave";
  presenceKey: string;
}

/**
 * What travels through the pub/sub driver, already in the shape clients receive, so that it is
 * serialized once per publish rather than once per subscriber.
 */
export type ChannelEvent = ChannelMessageEvent | ChannelPresenceEvent;

export function encodeChannelEvent(event: ChannelEvent): string {
  try {
    return JSON.stringify(event.messageType === "message" ? { ...event, message: event.message ?? null } : event);
  } catch (cause) {
    throw new TypedError({
      message: `A channel message must be JSON-serializable: ${(cause as Error).message}`,
      type: ErrorType.CONNECTION_SERVER_ERROR,
      cause,
    });
  }
}

export function decodeChannelEvent(text: string): ChannelEvent | undefined {
  try {
    const event = JSON.parse(text) as ChannelEvent;
    return event && (event.messageType === "message" || event.messageType === "presence") ? event : undefined;
  } catch {
    return undefined;
  }
}
