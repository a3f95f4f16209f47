import type { Request, RequestHandler } from "express";
import cors, { CorsOptions } from "cors";
import { REQUEST_ID_HEADER } from "./request-id";

/**
 * CORS for the configured origins. An origin listed by name may send credentials; the `*`
 * wildcard never does, since a browser refuses credentials with `*` and reflecting any origin
 * with credentials would hand every site the user's session.
 */
export function corsFor(allowedOrigins: readonly string[]): RequestHandler {
  const named = new Set(allowedOrigins.filter((origin) => origin !== "*"));
  const anyOrigin = allowedOrigins.includes("*");
  const shared: CorsOptions = { exposedHeaders: [REQUEST_ID_HEADER], maxAge: 600 };
  return cors((req, callback) => {
    const origin = (req as Request).get("Origin");
    if (origin && named.has(origin)) return callback(null, { ...shared, origin, credentials: true });
    if (anyOrigin) return callback(null, { ...shared, origin: "*" });
    callback(null, { origin: false });
  });
}
