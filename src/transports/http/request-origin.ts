import type { TLSSocket } from "node:tls";
import type { Request } from "express";
import type { HttpSettings } from "./settings";

/** Where a request came from, as Express's `req.ip` and `req.secure` answer under the trust-proxy setting. */
export interface RequestOrigin {
  address(req: Request): string | undefined;
  secure(req: Request): boolean;
}

const behindTrustedProxy: RequestOrigin = {
  address: (req) => req.ip,
  secure: (req) => req.secure,
};

/**
 * Trusting no proxy, Express answers the TCP peer's address and the socket's own encryption, but
 * only after parsing X-Forwarded-For and compiling its answer on every access; these read the
 * socket directly.
 */
const direct: RequestOrigin = {
  address: (req) => req.socket.remoteAddress,
  secure: (req) => (req.socket as Partial<TLSSocket>).encrypted === true,
};

export function requestOrigin(trustProxy: HttpSettings["trustProxy"]): RequestOrigin {
  return trustProxy === false || trustProxy === 0 ? direct : behindTrustedProxy;
}
