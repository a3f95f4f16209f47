import { parseSetCookie } from "cookie";
import type { SessionCookieChange } from "herald";

/** The one cookie a browser keeps for a site, fed by the Set-Cookie values the server sends. */
export class CookieJar {
  private cookie: string | undefined;

  /** The Cookie header the next request carries. */
  get header(): string | undefined {
    return this.cookie;
  }

  receive(change: SessionCookieChange): void {
    if (change.kind === "none") return;
    const { name, value, maxAge } = parseSetCookie(change.header);
    this.cookie = maxAge === 0 ? undefined : `${name}=${encodeURIComponent(value ?? "")}`;
  }
}
