import { tokenFor } from "./token-for";

/**
 * Where the calls made with an idempotency key are recorded: the first call's claim while it runs,
 * then its answer for replay (and MCP's task cancellations, which need the same reach). Redis when REDIS_URL is set (every process on it sees one record per
 * key), else in process. Values are opaque text; inject it by type, or register your own with
 * IDEMPOTENCY_STORE_TOKEN before the server boots.
 */
export abstract class IdempotencyStore {
  abstract readonly driver: string;
  /** How long a stored answer is replayed, in milliseconds (`IDEMPOTENCY_TTL`). */
  abstract readonly ttlMs: number;
  /** Sets `key` to `value` for `holdMs` if it holds nothing, answering undefined; else answers what it holds. */
  abstract claim(key: string, value: string, holdMs: number): Promise<string | undefined>;
  /** Replaces `key`'s value with `value`, kept `keepMs`, if it still holds `claimed`. */
  abstract settle(key: string, claimed: string, value: string, keepMs: number): Promise<void>;
  /** What `key` holds, if anything. */
  abstract read(key: string): Promise<string | undefined>;
  /** Forgets `key` if it still holds `claimed`. */
  abstract release(key: string, claimed: string): Promise<void>;
  abstract close(): Promise<void>;
}

/** `IdempotencyStore` as a container token. */
export const IDEMPOTENCY_STORE_TOKEN = tokenFor(IdempotencyStore);
