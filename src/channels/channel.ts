import type { z } from "zod";
import type { Connection } from "../core/connection";

/**
 * Runs around one connection's subscription: `runBefore` when it subscribes (throw to refuse
 * it), `runAfter` once it has left, by unsubscribing or by disconnecting.
 */
export interface ChannelMiddleware {
  name?: string;
  runBefore?(channel: string, connection: Connection): Promise<void> | void;
  runAfter?(channel: string, connection: Connection): Promise<void> | void;
}

/** A channel middleware as listed on a channel: an instance, or a class resolved through the container. */
export type ChannelMiddlewareReference = ChannelMiddleware | (new (...args: any[]) => ChannelMiddleware);

/**
 * A family of channels clients may subscribe to: one exact name, or every name a RegExp matches.
 * Set the members on any class in the app's channels folder, or extend `Channel`.
 */
export interface ChannelDefinition {
  name: string | RegExp;
  description?: string;
  /** Run in order before `authorize` on subscribe, and in reverse order after leaving. */
  middleware?: ChannelMiddlewareReference[];
  /**
   * Decides whether the connection may subscribe to `channel` (the concrete name, useful with a
   * RegExp `name`). Throw, or return false, to refuse: the client gets CONNECTION_CHANNEL_AUTHORIZATION
   * (or the type of the TypedError thrown). Without it, any connection may subscribe.
   */
  authorize?(channel: string, connection: Connection): Promise<boolean | void> | boolean | void;
  /**
   * What is published on the channel, as a zod schema: herald/client types each subscriber's
   * messages by it, and outside production (`CHECK_OUTPUTS`) `ChannelPublisher.publish` refuses a
   * message it does not describe, with CONNECTION_SERVER_ERROR naming the first wrong path.
   */
  message?: z.ZodType;
  /**
   * Makes the channel a presence channel: who a subscriber is, for the join and leave events every
   * subscriber receives. Several connections with the same key (a user's tabs) are present once.
   */
  presenceKey?(connection: Connection, channel: string): Promise<string> | string;
}

/**
 * A base class for channels: public (no `authorize`), no middleware, no presence, until a
 * subclass adds them. It declares only `name`, so subclasses add the optional members without
 * `override`.
 */
export abstract class Channel implements ChannelDefinition {
  abstract name: string | RegExp;
}

export function isChannelLike(value: unknown): value is ChannelDefinition {
  const name = (value as ChannelDefinition | undefined)?.name;
  return typeof name === "string" || name instanceof RegExp;
}
