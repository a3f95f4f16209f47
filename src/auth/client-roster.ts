import type { ClientLifetime } from "./limit-settings";

/** Models whose records, once saved, mean a token was issued to their client: it completed a grant. */
export const ISSUED = new Set(["AccessToken", "RefreshToken"]);

/**
 * The registered clients of the in-process store, least recently used first, and whether each
 * has had a token: what decides how long a client lives and which one a full store lets go.
 */
export class ClientRoster {
  /** The client's key in the store, and whether a token was issued to it; a Map keeps use order. */
  private readonly clients = new Map<string, boolean>();

  constructor(
    private readonly lifetime: ClientLifetime,
    private readonly capacity: number,
  ) {}

  /** A use: the client moves to the end of the order; its expiry, in milliseconds since the epoch, moves on. */
  use(key: string, now: number, issued = false): number {
    const granted = issued || this.clients.get(key) === true;
    this.clients.delete(key);
    this.clients.set(key, granted);
    return now + (granted ? this.lifetime.idle : this.lifetime.pending) * 1000;
  }

  has(key: string): boolean {
    return this.clients.has(key);
  }

  forget(key: string): void {
    this.clients.delete(key);
  }

  /**
   * The clients to let go so that the roster is within its capacity: the least recently used of
   * those never given a token first, a client with tokens only when every one has had some.
   */
  overflow(): string[] {
    const excess = this.clients.size - this.capacity;
    if (excess <= 0) return [];
    const evicted: string[] = [];
    for (const [key, granted] of this.clients) {
      if (evicted.length === excess) break;
      if (!granted) evicted.push(key);
    }
    for (const key of this.clients.keys()) {
      if (evicted.length === excess) break;
      if (!evicted.includes(key)) evicted.push(key);
    }
    for (const key of evicted) this.clients.delete(key);
    return evicted;
  }

  clear(): void {
    this.clients.clear();
  }
}
