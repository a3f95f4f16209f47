import type { IncomingMessage } from "node:http";
import { isSameOrigin } from "../../core/same-origin";

/**
 * Whether an upgrade may open a socket, and whether the socket gets the session of the cookie it
 * carries. A page from another site would otherwise act as the user (cross-site WebSocket
 * hijacking), since browsers send cookies with the upgrade whatever its origin.
 */
export type OriginVerdict = { accepted: false } | { accepted: true; withSession: boolean };

export function judgeOrigin(request: IncomingMessage, allowedOrigins: readonly string[]): OriginVerdict {
  const origin = request.headers.origin;
  // Without an Origin header the client is not a browser page: it sends only the cookies it chooses.
  if (origin === undefined) return { accepted: true, withSession: true };
  if (allowedOrigins.includes(origin) || isSameOrigin(origin, request.headers.host)) return { accepted: true, withSession: true };
  if (allowedOrigins.includes("*")) return { accepted: true, withSession: false };
  return { accepted: false };
}
