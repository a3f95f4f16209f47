/**
 * The addresses whose sockets were closed for flooding, and until when each may not open another:
 * without it, a closed flooder would reconnect at once and start again.
 */
export class AddressBackoff {
  /** The time (performance.now()) each address may connect again. */
  private readonly until = new Map<string, number>();
  /** The size at which expired entries are next dropped: twice what was left, so each add costs O(1) on average. */
  private sweepAt = 64;

  /** `durationMs` 0 backs nobody off. */
  constructor(private readonly durationMs: number) {}

  backOff(address: string | undefined): void {
    if (address === undefined || this.durationMs === 0) return;
    const now = performance.now();
    if (this.until.size >= this.sweepAt) {
      for (const [other, until] of this.until) if (until <= now) this.until.delete(other);
      this.sweepAt = Math.max(64, this.until.size * 2);
    }
    this.until.set(address, now + this.durationMs);
  }

  /** How many addresses are held, expired ones not yet dropped included. */
  get size(): number {
    return this.until.size;
  }

  /** Whole seconds until `address` may connect again, or undefined when it may now. */
  retryAfter(address: string | undefined): number | undefined {
    if (address === undefined) return undefined;
    const until = this.until.get(address);
    if (until === undefined) return undefined;
    const left = until - performance.now();
    if (left <= 0) {
      this.until.delete(address);
      return undefined;
    }
    return Math.ceil(left / 1000);
  }
}
