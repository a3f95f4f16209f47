import { IdempotencyStore } from "../core/idempotency-store";

/** How often expired records are swept out, so a flood of distinct keys does not stay in memory. */
const SWEEP_INTERVAL_MS = 10_000;

interface Held {
  value: string;
  expiresAt: number;
}

/** Idempotency records in this process only: what one process ran, another does not know. */
export class MemoryIdempotencyStore extends IdempotencyStore {
  readonly driver = "memory";
  private readonly records = new Map<string, Held>();
  private nextSweepAt = Date.now() + SWEEP_INTERVAL_MS;

  constructor(readonly ttlMs: number) {
    super();
  }

  async claim(key: string, value: string, holdMs: number): Promise<string | undefined> {
    const held = this.live(key);
    if (held) return held.value;
    this.records.set(key, { value, expiresAt: Date.now() + holdMs });
    return undefined;
  }

  async settle(key: string, claimed: string, value: string, keepMs: number): Promise<void> {
    if (this.live(key)?.value === claimed) this.records.set(key, { value, expiresAt: Date.now() + keepMs });
  }

  async read(key: string): Promise<string | undefined> {
    return this.live(key)?.value;
  }

  async release(key: string, claimed: string): Promise<void> {
    if (this.live(key)?.value === claimed) this.records.delete(key);
  }

  /** How many records are held, expired ones included until the next sweep. */
  get size(): number {
    return this.records.size;
  }

  async close(): Promise<void> {
    this.records.clear();
  }

  private live(key: string): Held | undefined {
    const now = Date.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    const held = this.records.get(key);
    return held && held.expiresAt > now ? held : undefined;
  }

  private sweep(now: number): void {
    for (const [key, held] of this.records) if (held.expiresAt <= now) this.records.delete(key);
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
  }
}
