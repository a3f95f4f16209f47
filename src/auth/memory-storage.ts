import { ClientRoster, ISSUED } from "./client-roster";
import { alreadyConsumed } from "./consume-once";
import { DEFAULT_CLIENT_LIFETIME, DEFAULT_MAX_CLIENTS, type ClientLifetime } from "./limit-settings";
import type { Adapter, AdapterPayload, OAuthStorage } from "./storage";

interface Entry {
  payload: AdapterPayload;
  /** Milliseconds since the epoch. */
  expiresAt?: number;
}

export interface MemoryOAuthStorageOptions {
  clientLifetime: ClientLifetime;
  /** How many registered clients are held: past it, the least recently used (one never given a token first) is let go. */
  maxClients: number;
  now?: () => number;
}

const DEFAULTS: MemoryOAuthStorageOptions = { clientLifetime: DEFAULT_CLIENT_LIFETIME, maxClients: DEFAULT_MAX_CLIENTS };

/**
 * The authorization server's records in this process's memory: the default without REDIS_URL.
 * A registered client expires unless used (sooner until a token is issued to it), and the store
 * holds a bounded number of them.
 */
export class MemoryOAuthStorage implements OAuthStorage {
  readonly driver = "memory";
  private readonly entries = new Map<string, Entry>();
  /** Lookups by interaction session uid, user code and grant id: each names records by key. */
  private readonly pointers = new Map<string, string>();
  private readonly grants = new Map<string, Set<string>>();
  private readonly clients: ClientRoster;
  private readonly now: () => number;
  private writes = 0;

  constructor(options: Partial<MemoryOAuthStorageOptions> = {}) {
    const { clientLifetime, maxClients, now } = { ...DEFAULTS, ...options };
    this.clients = new ClientRoster(clientLifetime, maxClients);
    this.now = now ?? Date.now;
  }

  adapter(model: string): Adapter {
    const key = (id: string) => `${model}:${id}`;
    const read = (id: string | undefined): AdapterPayload | undefined => {
      if (id === undefined) return undefined;
      const entry = this.entries.get(id);
      if (!entry) return undefined;
      if (entry.expiresAt !== undefined && entry.expiresAt <= this.now()) {
        this.entries.delete(id);
        this.clients.forget(id);
        return undefined;
      }
      if (this.clients.has(id)) entry.expiresAt = Math.max(entry.expiresAt ?? 0, this.clients.use(id, this.now()));
      return structuredClone(entry.payload);
    };
    return {
      upsert: async (id, payload, expiresIn) => {
        if (++this.writes % 1000 === 0) this.sweep();
        const expiresAt = model === "Client" ? this.clients.use(key(id), this.now()) : expiresIn ? this.now() + expiresIn * 1000 : undefined;
        this.entries.set(key(id), { payload: structuredClone(payload), ...(expiresAt !== undefined ? { expiresAt } : {}) });
        if (model === "Client") for (const evicted of this.clients.overflow()) this.entries.delete(evicted);
        if (ISSUED.has(model) && payload.clientId) this.issuedTo(`Client:${payload.clientId}`);
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
        if (!entry || entry.payload.consumed !== undefined || (entry.expiresAt !== undefined && entry.expiresAt <= this.now())) throw alreadyConsumed(model);
        entry.payload.consumed = Math.floor(this.now() / 1000);
      },
      destroy: async (id) => {
        this.entries.delete(key(id));
        this.clients.forget(key(id));
      },
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
    this.clients.clear();
  }

  /** A token was issued to the client: it is kept as long as a used client is. */
  private issuedTo(clientKey: string): void {
    const entry = this.entries.get(clientKey);
    if (entry && this.clients.has(clientKey)) entry.expiresAt = this.clients.use(clientKey, this.now(), true);
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt === undefined || entry.expiresAt > now) continue;
      this.entries.delete(id);
      this.clients.forget(id);
    }
    for (const [pointer, id] of this.pointers) if (!this.entries.has(id)) this.pointers.delete(pointer);
    for (const [grantId, members] of this.grants) {
      for (const member of members) if (!this.entries.has(member)) members.delete(member);
      if (members.size === 0) this.grants.delete(grantId);
    }
  }
}
