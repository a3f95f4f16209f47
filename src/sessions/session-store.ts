import { tokenFor } from "../core/token-for";
import { ErrorType, TypedError } from "../core/errors";

/** What a session holds: JSON values by key. */
export type SessionData = Record<string, unknown>;

/**
 * Where sessions live between requests, shared by every connection (and, with Redis, every
 * process). A driver keeps each session as JSON under its id and forgets it `ttlMs` after its
 * last write or refresh. When its backing service cannot answer, an operation rejects promptly
 * with a TypedError of type CONNECTION_SERVICE_UNAVAILABLE instead of waiting for it.
 *
 * Inject it by type (`constructor(store: SessionStore)`); register it with SESSION_STORE_TOKEN.
 */
export abstract class SessionStore {
  /** Which driver this is, for logs: "memory", "redis" … */
  abstract readonly driver: string;
  /**
   * The session's data, or undefined when the id is unknown or expired. With `refreshTtlMs`, the
   * session's expiry moves to now + refreshTtlMs in the same step.
   */
  abstract get(id: string, refreshTtlMs?: number): Promise<SessionData | undefined>;
  /** Creates or replaces the session, expiring `ttlMs` from now. */
  abstract set(id: string, data: SessionData, ttlMs: number): Promise<void>;
  /** Forgets the session; an unknown id is not an error. */
  abstract delete(id: string): Promise<void>;
  /**
   * Records that the session `id` belongs to `owner` (a user's id, say), so that `deleteOwned`
   * finds it. Ids of sessions that have ended meanwhile are dropped from the owner's index here.
   * The index must last as long as its longest-lived session, refreshes and writes included, and
   * no longer: an owner whose sessions have all ended leaves nothing behind.
   */
  abstract addOwned(owner: string, id: string): Promise<void>;
  /** Forgets every session recorded for `owner` but `keepId`, which stays recorded; an owner without sessions is not an error. */
  abstract deleteOwned(owner: string, keepId?: string): Promise<void>;
  /** Releases connections and timers; the store is not used afterwards. */
  abstract close(): Promise<void>;
}

/** `SessionStore` as a container token. */
export const SESSION_STORE_TOKEN = tokenFor(SessionStore);

/** The stored form of a session. Values that JSON cannot carry (a BigInt, a cycle) are refused. */
export function encodeSessionData(data: SessionData): string {
  try {
    return JSON.stringify(data);
  } catch (cause) {
    throw new TypedError({
      message: `Session data must be JSON-serializable: ${(cause as Error).message}`,
      type: ErrorType.CONNECTION_SERVER_ERROR,
      cause,
    });
  }
}

/** The data back from its stored form; undefined when the text is not a JSON object. */
export function decodeSessionData(text: string): SessionData | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  // A null prototype, so keys such as "constructor" or "__proto__" are plain keys.
  return Object.assign(Object.create(null) as SessionData, parsed);
}

/** A TTL as the drivers store it: whole milliseconds, at least one. */
export function checkTtl(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new TypedError({
      message: `A session TTL must be a positive number of milliseconds, got ${ttlMs}`,
      type: ErrorType.CONNECTION_SERVER_ERROR,
    });
  }
  return Math.max(1, Math.round(ttlMs));
}
