import { once } from "node:events";
import type Redis from "ioredis";
import { ErrorType, TypedError } from "../core/errors";

export function pubSubUnavailable(reason: string, cause?: unknown): TypedError {
  return new TypedError({
    message: `Channels (Redis) are unavailable: ${reason}`,
    type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Opens a lazily connecting client and waits until Redis is ready. Rejects with
 * CONNECTION_SERVICE_UNAVAILABLE on the first failure or after `timeoutMs`; the client keeps
 * retrying in the background.
 */
export async function connectClient(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status === "ready") return;
  if (client.status === "end") throw pubSubUnavailable("the connection is closed");
  // A failed attempt surfaces as an "error" event (which rejects the wait below) and is retried.
  if (client.status === "wait") client.connect().catch(() => undefined);
  try {
    await once(client, "ready", { signal: AbortSignal.timeout(timeoutMs) });
  } catch (cause) {
    const reason = (cause as Error).name === "AbortError" ? `not ready within ${timeoutMs} ms` : (cause as Error).message;
    throw pubSubUnavailable(reason, cause);
  }
}

/** Closes a client: QUIT when connected, else cancel the pending reconnection. */
export async function closeClient(client: Redis): Promise<void> {
  if (client.status === "end") return;
  if (client.status !== "ready") {
    client.disconnect();
    return;
  }
  const ended = new Promise((resolve) => client.once("end", resolve));
  await client.quit().catch(() => client.disconnect());
  await ended;
}

/** Runs a command, turning a Redis failure into CONNECTION_SERVICE_UNAVAILABLE. */
export async function redisCommand<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (cause) {
    if (cause instanceof TypedError) throw cause;
    throw pubSubUnavailable((cause as Error).message, cause);
  }
}
