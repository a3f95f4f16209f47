/** The longest wait between two reconnection attempts. */
export const RECONNECT_CAP_MS = 2000;

/**
 * The one reconnection policy of every Redis connection (ioredis's `retryStrategy` and
 * bee-queue's node_redis `retry_strategy`): 100 ms after the first failure, doubling, capped at
 * 2 s, and never giving up, so a connection is back within 2 s of Redis, however long it was away.
 */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(100 * 2 ** Math.max(0, attempt - 1), RECONNECT_CAP_MS);
}
