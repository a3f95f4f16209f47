import { checkTtl, decodeSessionData, encodeSessionData, SessionData, SessionStore } from "./session-store";

export interface MemorySessionStoreOptions {
  /** How often expired sessions are swept out of memory; default one minute. */
  sweepIntervalMs?: number;
}

interface Entry {
  json: string;
  expiresAt: number;
}

/**
 * Sessions in this process's memory: the default when no Redis is configured. They are lost on
 * restart and not seen by other processes. Data is kept as JSON, as Redis keeps it, so an app
 * behaves the same on both drivers.
 */
export class MemorySessionStore implements SessionStore {
  readonly driver = "memory";
  private readonly entries = new Map<string, Entry>();
  private readonly owned = new Map<string, Set<string>>();
  private readonly sweepIntervalMs: number;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  }

  /** How many live sessions the store holds. */
  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  async get(id: string, refreshTtlMs?: number): Promise<SessionData | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(id);
      return undefined;
    }
    if (refreshTtlMs !== undefined) entry.expiresAt = Date.now() + checkTtl(refreshTtlMs);
    return decodeSessionData(entry.json);
  }

  async set(id: string, data: SessionData, ttlMs: number): Promise<void> {
    const entry = { json: encodeSessionData(data), expiresAt: Date.now() + checkTtl(ttlMs) };
    this.entries.set(id, entry);
    this.sweeper ??= setInterval(() => this.sweep(), this.sweepIntervalMs).unref();
  }

  async delete(id: string): Promise<void> {
    this.entries.delete(id);
  }

  async addOwned(owner: string, id: string): Promise<void> {
    const ids = this.owned.get(owner) ?? new Set<string>();
    for (const known of ids) if (!this.isLive(known)) ids.delete(known);
    ids.add(id);
    this.owned.set(owner, ids);
  }

  async deleteOwned(owner: string, keepId?: string): Promise<void> {
    for (const id of this.owned.get(owner) ?? []) if (id !== keepId) this.entries.delete(id);
    if (keepId === undefined) this.owned.delete(owner);
    else this.owned.set(owner, new Set([keepId]));
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.entries.clear();
    this.owned.clear();
  }

  private isLive(id: string): boolean {
    const entry = this.entries.get(id);
    return entry !== undefined && entry.expiresAt > Date.now();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
    for (const [owner, ids] of this.owned) {
      for (const id of ids) if (!this.entries.has(id)) ids.delete(id);
      if (ids.size === 0) this.owned.delete(owner);
    }
  }
}
