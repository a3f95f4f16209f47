import type { IncomingMessage, ServerResponse } from "node:http";
import cors, { CorsOptions } from "cors";
import { releaseHeldHeaders } from "./held-headers";
import { REPLAYED_HEADER } from "./idempotency-key";
import { REQUEST_ID_HEADER } from "./request-id";

/** The `cors` middleware, on node:http's request and response: Express is not needed for it. */
export type CorsMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** Adds CORS's headers to an action request's response, or answers its preflight: true when it answered. */
export type ActionCors = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * What CORS grants an origin: an origin listed by name may send credentials; the `*` wildcard
 * never does, since a browser refuses credentials with `*` and reflecting any origin with
 * credentials would hand every site the user's session. Undefined: nothing, no CORS header.
 */
function grantsFor(allowedOrigins: readonly string[]): (origin: string | undefined) => CorsOptions | undefined {
  const named = new Set(allowedOrigins.filter((origin) => origin !== "*"));
  const anyOrigin = allowedOrigins.includes("*");
  const shared: CorsOptions = { exposedHeaders: [REQUEST_ID_HEADER, REPLAYED_HEADER], maxAge: 600 };
  return (origin) => {
    if (origin && named.has(origin)) return { ...shared, origin, credentials: true };
    if (anyOrigin) return { ...shared, origin: "*" };
    return undefined;
  };
}

/** CORS for the configured origins (see `grantsFor`), for mounts and static files. */
export function corsFor(allowedOrigins: readonly string[]): CorsMiddleware {
  const grants = grantsFor(allowedOrigins);
  return cors<IncomingMessage>((req, callback) => callback(null, grants(req.headers.origin) ?? { origin: false }));
}

/**
 * CORS for action requests, which node:http answers with their headers held (see held-headers):
 * a request whose origin CORS grants nothing is left as it is, so its answer keeps the one
 * `writeHead`; any other has the held headers set first, so that the preflight's `204` carries
 * them and CORS's headers follow them, as on every other response.
 */
export function corsForActions(allowedOrigins: readonly string[]): ActionCors {
  const grants = grantsFor(allowedOrigins);
  const middleware = corsFor(allowedOrigins);
  return (req, res) => {
    if (grants(req.headers.origin) === undefined) return false;
    releaseHeldHeaders(res);
    let passedOn = false;
    // `cors` chooses its options through our delegate, which answers at once: it has answered or passed on when it returns.
    middleware(req, res, (error) => {
      if (error) throw error;
      passedOn = true;
    });
    return !passedOn;
  };
}
