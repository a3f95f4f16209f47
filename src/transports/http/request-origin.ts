import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { type CallerAddress, compileTrust, type TrustProxy } from "../../core/caller-address";

/**
 * Where a request came from: the caller's address by Herald's one rule, whether it came over
 * HTTPS, and the host it was sent to. Read from the request itself, as Express's `req.ip`,
 * `req.secure` and `req.host` read it under the same `trust proxy` setting, so that actions
 * (answered from node:http, docs/http.md) and mounts (through Express) see the same caller.
 */
export interface RequestOrigin {
  address(req: IncomingMessage): string | undefined;
  secure(req: IncomingMessage): boolean;
  /** `Host`, or the first `X-Forwarded-Host` when the peer is a trusted proxy; undefined when neither is sent. */
  host(req: IncomingMessage): string | undefined;
}

function firstListed(header: string): string {
  const comma = header.indexOf(",");
  return comma === -1 ? header.trim() : header.slice(0, comma).trim();
}

export function requestOrigin(trustProxy: TrustProxy, address: CallerAddress): RequestOrigin {
  const encrypted = (req: IncomingMessage) => (req.socket as Partial<TLSSocket>).encrypted === true;
  if (trustProxy === false || trustProxy === 0) {
    return { address, secure: encrypted, host: (req) => req.headers.host || undefined };
  }
  const trusted = compileTrust(trustProxy);
  const peerTrusted = (req: IncomingMessage) => trusted(req.socket.remoteAddress ?? "", 0);
  return {
    address,
    secure(req) {
      const forwarded = req.headers["x-forwarded-proto"];
      if (typeof forwarded !== "string" || !forwarded || !peerTrusted(req)) return encrypted(req);
      return firstListed(forwarded) === "https";
    },
    host(req) {
      const forwarded = req.headers["x-forwarded-host"];
      if (typeof forwarded !== "string" || !forwarded || !peerTrusted(req)) return req.headers.host || undefined;
      const comma = forwarded.indexOf(",");
      return (comma === -1 ? forwarded : forwarded.slice(0, comma).trimEnd()) || undefined;
    },
  };
}
