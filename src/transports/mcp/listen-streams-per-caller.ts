import { addressKey } from "../../core/caller-address";
import type { ConnectionAuth } from "../../core/connection";

/**
 * The `subscriptions/listen` streams each caller holds open in this process. The SDK bounds them
 * all together (MCP_MAX_SUBSCRIPTIONS); without a bound per caller, one client could hold every
 * stream and leave none for anyone else. A stream counts against its caller's address and, with a
 * token, against the token's holder too: many addresses with one token, or many tokens from one
 * address, get no more.
 */
export class ListenStreamsPerCaller {
  private readonly open = new Map<string, number>();
  private streams = 0;

  constructor(readonly bound: number) {}

  /** The listen streams open, whoever holds them. */
  get total(): number {
    return this.streams;
  }

  /** The keys a listen stream counts under. */
  static keysOf(remoteAddress: string | undefined, auth: ConnectionAuth | undefined): string[] {
    const keys = [`address ${addressKey(remoteAddress) ?? ""}`];
    if (auth) keys.push(`token ${auth.clientId}\n${auth.subject ?? ""}`);
    return keys;
  }

  /**
   * Counts one more stream under each key, and returns what ends it; undefined, counting nothing,
   * when one of the keys already holds `bound` streams.
   */
  take(keys: readonly string[]): (() => void) | undefined {
    if (keys.some((key) => (this.open.get(key) ?? 0) >= this.bound)) return undefined;
    for (const key of keys) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    this.streams++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.streams--;
      for (const key of keys) {
        const left = this.open.get(key)! - 1;
        if (left > 0) this.open.set(key, left);
        else this.open.delete(key);
      }
    };
  }
}
