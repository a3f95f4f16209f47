import type { TLSSocket } from "node:tls";
import type { Request } from "express";
import type { CallerAddress, TrustProxy } from "../../core/caller-address";

/** Where a request came from: the caller's address by Herald's one rule, and whether it came over HTTPS. */
export interface RequestOrigin {
  address(req: Request): string | undefined;
  secure(req: Request): boolean;
}

/**
 * Trusting no proxy, Express answers the socket's own encryption, but only after compiling its
 * answer from `X-Forwarded-Proto` on every access; then this reads the socket directly.
 */
export function requestOrigin(trustProxy: TrustProxy, address: CallerAddress): RequestOrigin {
  const direct = trustProxy === false || trustProxy === 0;
  return {
    address,
    secure: direct ? (req) => (req.socket as Partial<TLSSocket>).encrypted === true : (req) => req.secure,
  };
}
