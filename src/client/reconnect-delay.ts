/** How long a dropped socket waits before each attempt to connect again. */
export interface ReconnectOptions {
  /** The wait before the first attempt; default 100 ms. It doubles with each failed attempt. */
  initialDelayMs?: number;
  /** The longest wait; default 5000 ms. */
  maxDelayMs?: number;
}

/**
 * The wait before attempt `attempt` (1 for the first): doubling from `initialDelayMs` up to
 * `maxDelayMs`, of which half is random, so that the clients a restarting server dropped all at
 * once come back spread out rather than together.
 */
export function reconnectDelay(attempt: number, options: ReconnectOptions = {}, random: () => number = Math.random): number {
  const { initialDelayMs = 100, maxDelayMs = 5000 } = options;
  const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
