import type { Logger } from "../core/logger";
import { Session } from "./session";
import { SessionCookie } from "./session-cookie";
import type { SessionStore } from "./session-store";

export interface SessionManagerOptions {
  store: SessionStore;
  /** The HMAC key that signs session cookies. */
  secret: string;
  /** How long a session lives after its last use, in milliseconds; also the cookie's Max-Age. */
  ttlMs: number;
  /** Default `herald.sid`. */
  cookieName?: string;
  /** Mark the cookie Secure (HTTPS only); on in production. */
  secure?: boolean;
  /** Where a session that cannot be loaded is reported. */
  logger?: Logger;
}

/** What the transport does with the session cookie once the action has run. */
export type SessionCookieChange =
  | { kind: "none" }
  | { kind: "set"; reason: "created" | "regenerated" | "refreshed"; id: string; header: string }
  | { kind: "clear"; reason: "destroyed" | "unknown"; header: string };

/**
 * The session layer the transports plug in: it gives each connection its Session, from the
 * cookie the client sent, and says afterwards which Set-Cookie to send back. Resolve it from the
 * server's container (`SessionManager`).
 */
export class SessionManager {
  readonly store: SessionStore;
  readonly cookie: SessionCookie;
  readonly ttlMs: number;
  private readonly logger: Logger | undefined;
  /** Sessions whose request carried a session cookie, valid or not. */
  private readonly presentedCookie = new WeakSet<Session>();

  constructor(options: SessionManagerOptions) {
    this.store = options.store;
    this.ttlMs = options.ttlMs;
    this.logger = options.logger;
    this.cookie = new SessionCookie({
      name: options.cookieName ?? "herald.sid",
      secret: options.secret,
      maxAgeMs: options.ttlMs,
      secure: options.secure ?? false,
    });
  }

  /**
   * The session of a request, from its Cookie header (HTTP request, WebSocket upgrade). Without a
   * validly signed cookie naming a live session the connection is anonymous, and nothing is read
   * from the store unless the cookie's signature matches. Without a session cookie the anonymous
   * session is returned at once, not as a promise: most requests carry none, and the store has
   * nothing to say about them.
   */
  fromCookieHeader(cookieHeader: string | undefined): Session | Promise<Session> {
    const cookie = this.cookie.read(cookieHeader);
    if (cookie.kind === "absent") return this.anonymous();
    return this.open(cookie.kind === "signed" ? cookie.id : undefined).then((session) => {
      this.presentedCookie.add(session);
      return session;
    });
  }

  /** A new anonymous session: one that holds nothing and is in the store only once something is written. */
  anonymous(): Session {
    return Session.anonymous(this.store, this.ttlMs);
  }

  /**
   * The session with an id this server issued (already authenticated by the caller), loaded; or,
   * without one, a new anonymous session. When the store cannot be read, the session is returned
   * anyway so that actions that do not use it still run; reading it then throws the store's
   * CONNECTION_SERVICE_UNAVAILABLE error.
   */
  async open(id?: string): Promise<Session> {
    // Without an id there is nothing to read, and no settled read for the session to keep.
    if (id === undefined) return this.anonymous();
    const session = new Session(this.store, this.ttlMs, id);
    await session.load().catch((error: unknown) => {
      this.logger?.warn({ err: error }, "session could not be loaded");
    });
    return session;
  }

  /**
   * The Set-Cookie the response carries, after the action: the new id when the session was
   * created or regenerated, the same id again while the session lives (its Max-Age restarts as
   * its TTL does), a clearing cookie when the session was destroyed or the cookie named no
   * session, nothing for an anonymous connection or when the store could not be read.
   */
  cookieChange(session: Session): SessionCookieChange {
    if (session.unavailable) return { kind: "none" };
    const id = session.id;
    if (id !== undefined) {
      const reason = session.change === "created" || session.change === "regenerated" ? session.change : "refreshed";
      return { kind: "set", reason, id, header: this.cookie.serialize(id) };
    }
    if (!this.presentedCookie.has(session)) return { kind: "none" };
    const reason = session.change === "destroyed" ? "destroyed" : "unknown";
    return { kind: "clear", reason, header: this.cookie.serializeClear() };
  }
}
