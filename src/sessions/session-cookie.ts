import { parseCookie, stringifySetCookie } from "cookie";
import { sign, unsign } from "cookie-signature";

/** The session id followed by its HMAC-SHA256 signature, as the cookie carries it. */
export function signSessionId(id: string, secret: string): string {
  return sign(id, secret);
}

/** The session id of a signed value, or undefined when the signature does not match the secret. */
export function unsignSessionId(signed: string, secret: string): string | undefined {
  const id = unsign(signed, secret);
  return id === false || id === "" ? undefined : id;
}

export interface SessionCookieOptions {
  /** The cookie's name, such as `herald.sid`. */
  name: string;
  /** The HMAC key that signs the session id. */
  secret: string;
  /** How long the browser keeps the cookie; the session TTL. */
  maxAgeMs: number;
  /** Send it only over HTTPS; on in production. */
  secure: boolean;
}

/**
 * The session cookie: a signed session id, HttpOnly, SameSite=Lax, Path=/, with Max-Age equal to
 * the session TTL, and Secure when configured. Transports read it from a request's Cookie header
 * and write the Set-Cookie values it builds.
 */
export class SessionCookie {
  readonly name: string;
  private readonly secret: string;
  private readonly maxAgeMs: number;
  private readonly secure: boolean;

  constructor(options: SessionCookieOptions) {
    this.name = options.name;
    this.secret = options.secret;
    this.maxAgeMs = options.maxAgeMs;
    this.secure = options.secure;
  }

  /**
   * What a Cookie header says about the session: `absent` (no such cookie), `invalid` (a cookie
   * whose signature does not match) or `signed` with the session id it carries.
   */
  read(cookieHeader: string | undefined): { kind: "absent" } | { kind: "invalid" } | { kind: "signed"; id: string } {
    const value = cookieHeader ? parseCookie(cookieHeader)[this.name] : undefined;
    if (value === undefined) return { kind: "absent" };
    const id = unsignSessionId(value, this.secret);
    return id === undefined ? { kind: "invalid" } : { kind: "signed", id };
  }

  /** A Set-Cookie value that stores the signed session id for the session TTL. */
  serialize(id: string): string {
    return stringifySetCookie(this.name, signSessionId(id, this.secret), {
      ...this.attributes(),
      maxAge: Math.max(1, Math.ceil(this.maxAgeMs / 1000)),
    });
  }

  /** A Set-Cookie value that makes the browser drop the cookie. */
  serializeClear(): string {
    return stringifySetCookie(this.name, "", { ...this.attributes(), maxAge: 0, expires: new Date(0) });
  }

  private attributes() {
    return { httpOnly: true, sameSite: "lax" as const, secure: this.secure, path: "/" };
  }
}
