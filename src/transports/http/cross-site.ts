import type { IncomingMessage } from "node:http";
import { ErrorType, TypedError } from "../../core/errors";
import { isSameOrigin } from "../../core/same-origin";

/** Methods a browser sends cross-site without asking (links, images): they must not change anything, so they pass. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Throws when a request may not change anything here: see `crossSiteCheck`. */
export type CrossSiteCheck = (req: IncomingMessage) => void;

/** Whether the browser says the request comes from another site; undefined when nothing says (curl, a server). */
function crossSiteOrigin(req: IncomingMessage, hostOf: (req: IncomingMessage) => string | undefined): string | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined) return isSameOrigin(origin, hostOf(req)) ? undefined : origin;
  return req.headers["sec-fetch-site"] === "cross-site" ? "cross-site" : undefined;
}

/**
 * Refuses a state-changing request sent by a page of another site (cross-site request forgery): a
 * form POST carries the session cookie under `SameSite=Lax` when it navigates the top frame, and
 * `SameSite` says nothing about a sibling subdomain. Browsers name the page in `Origin` (or,
 * without it, in `Sec-Fetch-Site`); a client that sends neither is not a browser page, and chooses
 * its own cookies. An origin listed in HTTP_CORS_ORIGINS may call; the `*` wildcard admits any
 * origin only without cookies, as CORS admits it only without credentials.
 */
export function crossSiteCheck(corsOrigins: readonly string[], hostOf: (req: IncomingMessage) => string | undefined): CrossSiteCheck {
  const named = new Set(corsOrigins.filter((origin) => origin !== "*"));
  const anyOrigin = corsOrigins.includes("*");
  return (req) => {
    if (SAFE_METHODS.has(req.method!)) return;
    const origin = crossSiteOrigin(req, hostOf);
    if (origin === undefined || named.has(origin) || (anyOrigin && req.headers.cookie === undefined)) return;
    throw new TypedError({
      message: "A cross-site request may not change anything: its origin is not allowed (HTTP_CORS_ORIGINS)",
      type: ErrorType.CONNECTION_FORBIDDEN,
      key: "origin",
      value: origin,
    });
  };
}
