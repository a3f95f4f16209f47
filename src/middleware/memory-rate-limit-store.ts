import { RateLimitHit, RateLimitStore } from "./rate-limit-store";

/** How often expired windows are swept out, so a flood of distinct keys does not stay in memory. */
const SWEEP_INTERVAL_MS = 10_000;

/** Rate-limit counters in this process only: each process counts on its own. */
export class MemoryRateLimitStore extends RateLimitStore {
  readonly driver = "memory";
  private readonly windows = new Map<string, RateLimitHit>();
  private nextSweepAt = Date.now() + SWEEP_INTERVAL_MS;

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    const now = Date.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { ...window };
  }

  async uncount(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.resetAt > Date.now() && window.count > 0) window.count -= 1;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  /** How many windows are held, expired ones included until the next sweep. */
  get size(): number {
    return this.windows.size;
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
  }
}
