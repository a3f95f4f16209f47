import { tokenFor } from "../core/token-for";

/** One call counted against a budget: how many calls the window has seen, and when it ends. */
export interface RateLimitHit {
  count: number;
  /** When the window ends and the count starts again from 0, as epoch milliseconds. */
  resetAt: number;
}

/**
 * Where rate-limit counters live: fixed windows, one counter per key. Redis when REDIS_URL is set
 * (every process sharing it counts together), else in process. Inject it by type; register your
 * own with RATE_LIMIT_STORE_TOKEN.
 */
export abstract class RateLimitStore {
  abstract readonly driver: string;
  /** Counts one call against `key` and says where its window stands; the first call opens a window of `windowMs`. */
  abstract hit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** Takes one counted call back from `key`'s window, if it still has one; its end does not move. */
  abstract uncount(key: string): Promise<void>;
  /** Forgets `key`'s window: its next call opens a new one with a whole budget. */
  abstract reset(key: string): Promise<void>;
  abstract close(): Promise<void>;
}

/** `RateLimitStore` as a container token. */
export const RATE_LIMIT_STORE_TOKEN = tokenFor(RateLimitStore);
