import { tokenFor } from "../core/token-for";

/** One connection present on a channel under a presence key. */
export interface PresenceEntry {
  channel: string;
  presenceKey: string;
  /** The connection's id; unique across processes. */
  memberId: string;
}

/** A presence key that is no longer present on a channel. */
export interface PresenceDeparture {
  channel: string;
  presenceKey: string;
}

/**
 * Who is present on each presence channel: presence keys, each held by one or more connections
 * (members). A key is present from its first member's join to its last member's leave. A store
 * shared by several processes forgets the members of a process that stops refreshing them, so a
 * process that dies does not stay present.
 *
 * Inject it by type; register a replacement with PRESENCE_STORE_TOKEN.
 */
export abstract class PresenceStore {
  abstract readonly driver: string;
  /** Adds the member; true when its presence key was not present on the channel before. */
  abstract join(entry: PresenceEntry): Promise<boolean>;
  /** Removes the member; true when it was its key's last member, so the key left. */
  abstract leave(entry: PresenceEntry): Promise<boolean>;
  /** The presence keys present on the channel. */
  abstract members(channel: string): Promise<string[]>;
  /** Keeps this process's members alive; returns those whose key had lapsed and is present again. */
  abstract refresh(entries: readonly PresenceEntry[]): Promise<PresenceEntry[]>;
  /** Forgets members that were not refreshed in time; returns the keys that left with them. */
  abstract sweep(): Promise<PresenceDeparture[]>;
  abstract close(): Promise<void>;
}

/** `PresenceStore` as a container token. */
export const PRESENCE_STORE_TOKEN = tokenFor(PresenceStore);
