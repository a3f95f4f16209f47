import { tokenFor } from "../core/token-for";

export type PubSubHandler = (channel: string, payload: string) => void;

/**
 * Carries channel payloads between publishers and subscribers: within one process (in-process
 * driver) or across every process on the same backend (Redis). Delivery is at most once: a payload
 * published while a subscriber's connection is down is not replayed. When the backend cannot
 * answer, operations reject promptly with a TypedError of type CONNECTION_SERVICE_UNAVAILABLE.
 *
 * Inject it by type (`constructor(driver: PubSubDriver)`); register a replacement with PUBSUB_DRIVER_TOKEN.
 */
export abstract class PubSubDriver {
  /** Which driver this is, for logs: "memory", "redis" … */
  abstract readonly driver: string;
  /** Opens the driver's connections; resolves once it can publish and subscribe. */
  abstract connect(): Promise<void>;
  abstract publish(channel: string, payload: string): Promise<void>;
  /** Starts receiving the channel's payloads through the `onMessage` handlers; idempotent. */
  abstract subscribe(channel: string): Promise<void>;
  abstract unsubscribe(channel: string): Promise<void>;
  /** Adds a handler that receives every payload of every subscribed channel, asynchronously. */
  abstract onMessage(handler: PubSubHandler): void;
  /** Resolves when the backend answers; the driver's health check. */
  abstract ping(): Promise<void>;
  /** Releases connections; the driver is not used afterwards. */
  abstract close(): Promise<void>;
}

/** `PubSubDriver` as a container token. */
export const PUBSUB_DRIVER_TOKEN = tokenFor(PubSubDriver);
