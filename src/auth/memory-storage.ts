import type { Adapter, AdapterPayload, OAuthStorage } from "./storage";

interface Entry {
  payload: AdapterPayload;
  /** Milliseconds since the epoch; a client's record does not expire. */
  expiresAt?: number;
}

/** The authorization server's records in this process's memory: the default without REDIS_URL. */
export class MemoryOAuthStorage implements OAuthStorage {
  readonly driver = "memory";
  private readonly entries = new Map<string, Entry>();
  /** Lookups by interaction session uid, user code and grant id: each names records by key. */
  private readonly pointers = new Map<string, string>();
  private readonly grants = new Map<string, Set<string>>();
  private writes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  adapter(model: string): Adapter {
    const key = (id: string) => `${model}:${id}`;
    const read = (id: string | undefined): AdapterPayload | undefined => {
      if (id === undefined) return undefined;
      const entry = this.entries.get(id);
      if (!entry) return undefined;
      if (entry.expiresAt !== undefined && entry.expiresAt <= this.now()) {
        this.entries.delete(id);
        return undefined;
      }
      return structuredClone(entry.payload);
    };
    return {
      upsert: async (id, payload, expiresIn) => {
        if (++this.writes % 1000 === 0) this.sweep();
        const expiresAt = expiresIn ? this.now() + expiresIn * 1000 : undefined;
        this.entries.set(key(id), { payload: structuredClone(payload), ...(expiresAt !== undefined ? { expiresAt } : {}) });
        if (payload.grantId) {
          const members = this.grants.get(payload.grantId) ?? new Set();
          this.grants.set(payload.grantId, members.add(key(id)));
        }
        if (payload.uid) this.pointers.set(`sessionUid:${payload.uid}`, key(id));
        if (payload.userCode) this.pointers.set(`userCode:${payload.userCode}`, key(id));
      },
      find: async (id) => read(key(id)),
      findByUid: async (uid) => read(this.pointers.get(`sessionUid:${uid}`)),
      findByUserCode: async (userCode) => read(this.pointers.get(`userCode:${userCode}`)),
      consume: async (id) => {
        const entry = this.entries.get(key(id));
        if (entry) entry.payload.consumed = Math.floor(this.now() / 1000);
      },
      destroy: async (id) => void this.entries.delete(key(id)),
      revokeByGrantId: async (grantId) => {
        const members = this.grants.get(grantId);
        for (const member of members ?? []) {
          if (!member.startsWith(`${model}:`)) continue;
          this.entries.delete(member);
          members!.delete(member);
        }
        if (members?.size === 0) this.grants.delete(grantId);
      },
    };
  }

  async connect(): Promise<void> {}

  async close(): Promise<void> {
    this.entries.clear();
    this.pointers.clear();
    this.grants.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.entries.delete(id);
    for (const [pointer, id] of this.pointers) if (!this.entries.has(id)) this.pointers.delete(pointer);
    for (const [grantId, members] of this.grants) {
      for (const member of members) if (!this.entries.has(member)) members.delete(member);
      if (members.size === 0) this.grants.delete(grantId);
    }
  }
}
