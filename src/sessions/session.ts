import { randomBytes } from "node:crypto";
import type { ConnectionSession } from "../core/connection";
import { ErrorType, TypedError } from "../core/errors";
import { encodeSessionData, SessionData, SessionStore } from "./session-store";

/** What happened to a session's id while it was in use, which decides the cookie sent back. */
export type SessionIdChange = "created" | "regenerated" | "destroyed";

/**
 * The data of a session that holds none, shared: most connections never write one (every anonymous
 * socket keeps its session for as long as it is open), and a null-prototype object of its own is
 * a dictionary of about 200 bytes. The first write gives the session its own.
 */
const NO_DATA: SessionData = Object.freeze(Object.create(null) as SessionData);

/** 256 random bits, URL-safe and without the "." that separates a signed cookie's signature. */
export function generateSessionId(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The session of one connection, over a SessionStore. An anonymous connection has no session in
 * the store: one is created, with a fresh id, by the first write. Loading a session refreshes its
 * TTL, and so does every write. Writes go to the store at once, so a session is shared by every
 * connection (HTTP request, socket, process) that presents its id.
 */
export class Session implements ConnectionSession {
  /** The id the connection presented, whether or not it named a live session. */
  readonly presentedId: string | undefined;
  private currentId: string | undefined;
  private data: SessionData = NO_DATA;
  private loading: Promise<void> | undefined;
  private loaded = false;
  private loadFailure: unknown;
  private idChange: SessionIdChange | undefined;
  /** The reread of `reload` in flight, and the one queued behind it for the callers who came meanwhile. */
  private rereading: Promise<void> | undefined;
  private queuedReread: Promise<void> | undefined;
  /** Counts this connection's writes, so that a read begun before one does not undo it when it lands. */
  private writes = 0;

  constructor(
    private readonly store: SessionStore,
    private readonly ttlMs: number,
    presentedId?: string,
  ) {
    this.presentedId = presentedId;
  }

  /** A session for a connection that presented no id: loaded already, since there is nothing to read. */
  static anonymous(store: SessionStore, ttlMs: number): Session {
    const session = new Session(store, ttlMs);
    session.loaded = true;
    return session;
  }

  /** The id of the session in the store; undefined while the connection is anonymous. */
  get id(): string | undefined {
    return this.currentId;
  }

  /** What happened to the id since the session was opened, if anything. */
  get change(): SessionIdChange | undefined {
    return this.idChange;
  }

  /** Whether the store could not be read: then reads throw and writes retry the load first. */
  get unavailable(): boolean {
    return this.loadFailure !== undefined;
  }

  /**
   * Reads the presented session from the store once, refreshing its TTL; an unknown or expired id
   * leaves the connection anonymous. Rejects (and is retried by the next write) when the store is
   * down.
   */
  load(): Promise<void> {
    this.loading ??= this.fetch(this.loaded ? this.currentId : this.presentedId);
    return this.loading;
  }

  /**
   * Reads the session again, for a long-lived connection (a socket) that must see what other
   * connections wrote since; refreshes the TTL. A session destroyed or expired meanwhile leaves
   * the connection anonymous. Resolves after a read that began after the call, so that nothing
   * ended before the call is missed; callers who come while a read is in flight share the one
   * read queued behind it, so that a busy socket does not read once per call.
   */
  reload(): Promise<void> {
    if (!this.loaded) return this.load();
    if (!this.rereading) return this.reread();
    this.queuedReread ??= this.rereading
      .catch(() => undefined)
      .then(() => {
        this.queuedReread = undefined;
        return this.reread();
      });
    return this.queuedReread;
  }

  private reread(): Promise<void> {
    const reading: Promise<void> = this.fetch(this.currentId).finally(() => {
      if (this.rereading === reading) this.rereading = undefined;
    });
    this.rereading = reading;
    this.loading = reading;
    return reading;
  }

  get<T = unknown>(key: string): T | undefined {
    this.assertReadable();
    return this.data[key] as T | undefined;
  }

  /** A copy of every key and value. */
  all(): Record<string, unknown> {
    this.assertReadable();
    return { ...this.data };
  }

  /** Stores a JSON value under `key`, creating the session when the connection had none. */
  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) return this.delete(key);
    await this.load();
    // Kept as the store returns it, so a value reads the same now and on the next request.
    const stored = JSON.parse(encodeSessionData({ value })).value as unknown;
    if (this.data === NO_DATA) this.data = Object.create(null) as SessionData;
    this.data[key] = stored;
    await this.save();
  }

  async delete(key: string): Promise<void> {
    await this.load();
    if (!(key in this.data)) return;
    delete this.data[key];
    await this.save();
  }

  /** Forgets the session: its data and its id are gone from the store. */
  async destroy(): Promise<void> {
    await this.load();
    const id = this.currentId;
    this.writes += 1;
    if (id !== undefined) {
      await this.store.delete(id);
      this.idChange = "destroyed";
    }
    this.currentId = undefined;
    this.data = NO_DATA;
  }

  /**
   * Moves the data to a fresh id and deletes the old one, so an id known before a privilege
   * change (a login) is worthless after it. An anonymous connection has no id to move: the next
   * write creates a fresh one anyway.
   */
  async regenerate(): Promise<void> {
    await this.load();
    const previousId = this.currentId;
    if (previousId === undefined) return;
    const nextId = generateSessionId();
    this.writes += 1;
    await this.store.set(nextId, this.data, this.ttlMs);
    this.currentId = nextId;
    if (this.idChange !== "created") this.idChange = "regenerated";
    await this.store.delete(previousId);
  }

  private async fetch(id: string | undefined): Promise<void> {
    const writesBefore = this.writes;
    let data: SessionData | undefined;
    try {
      data = id === undefined ? undefined : await this.store.get(id, this.ttlMs);
    } catch (error) {
      this.loading = undefined;
      this.loadFailure = error;
      throw error;
    }
    // This connection wrote while the read was out: what it holds is newer than what was read,
    // unless the read found the session it still holds ended.
    if (this.loaded && this.writes !== writesBefore && (data !== undefined || id !== this.currentId)) return;
    this.loaded = true;
    this.loadFailure = undefined;
    this.currentId = data ? id : undefined;
    this.data = data ?? NO_DATA;
  }

  /** Records the session under `owner`; an anonymous connection is given an id first. */
  async own(owner: string | number): Promise<void> {
    await this.load();
    if (this.currentId === undefined) await this.save();
    await this.store.addOwned(String(owner), this.currentId!);
  }

  async destroyOthersOf(owner: string | number): Promise<void> {
    await this.own(owner);
    await this.store.deleteOwned(String(owner), this.currentId);
  }

  private async save(): Promise<void> {
    this.writes += 1;
    if (this.currentId === undefined) {
      this.currentId = generateSessionId();
      this.idChange = "created";
    }
    await this.store.set(this.currentId, this.data, this.ttlMs);
  }

  private assertReadable(): void {
    if (this.loadFailure !== undefined) throw this.loadFailure;
    if (!this.loaded) {
      throw new TypedError({
        message: "The session is read before it is loaded: await session.load() (SessionManager does it)",
        type: ErrorType.CONNECTION_SERVER_ERROR,
      });
    }
  }
}
