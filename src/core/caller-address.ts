import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import proxyAddr from "proxy-addr";
import { ErrorType, TypedError } from "./errors";

/** `HTTP_TRUST_PROXY`: trust no proxy (false), every proxy (true), so many hops, or these addresses and subnets. */
export type TrustProxy = boolean | number | string;

/** The address of the client behind a request that arrived over the network, as the trusted proxies report it. */
export type CallerAddress = (request: IncomingMessage) => string | undefined;

/** Whether the proxy at `address`, `hop` hops from this server, is trusted: as Express's `trust proxy` setting compiles it. */
export function compileTrust(trust: true | number | string): (address: string, hop: number) => boolean {
  if (trust === true) return () => true;
  if (typeof trust === "number") return (_address, hop) => hop < trust;
  try {
    return proxyAddr.compile(trust.split(",").map((part) => part.trim()));
  } catch (cause) {
    throw new TypedError({
      message: `Invalid environment variable HTTP_TRUST_PROXY: ${(cause as Error).message}`,
      type: ErrorType.CONFIG_ERROR,
      key: "HTTP_TRUST_PROXY",
      value: trust,
    });
  }
}

/**
 * One rule for every transport with a network peer (HTTP, WebSocket upgrades, MCP over HTTP), so
 * that `rateLimit({ by: "ip" })` and the per-address bounds see the same caller whichever way it
 * comes. Trusting no proxy, it is the TCP peer and `X-Forwarded-For` is not even read; otherwise
 * it is the address the last trusted proxy names, as Express's `req.ip` would give it.
 */
export function callerAddressRule(trust: TrustProxy): CallerAddress {
  if (trust === false || trust === 0) return (request) => request.socket.remoteAddress;
  const trusted = compileTrust(trust);
  return (request) => proxyAddr(request, trusted) || undefined;
}

/**
 * The key under which every per-address limit counts a caller (rate limits, connection caps,
 * calls in flight, WebSocket message budgets): an IPv4 address as it is, an IPv4-mapped IPv6
 * address as the IPv4 address it maps, any other IPv6 address as its /64. One host or one
 * subscriber line is routinely given a whole /64, so counting exact IPv6 addresses would let it
 * take a fresh address, and a fresh budget, for every request. Text that is not an address (an
 * unknown peer) is its own key; no address at all (a peer that had gone) has no key.
 */
export function addressKey(address: string): string;
export function addressKey(address: string | undefined): string | undefined;
export function addressKey(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  // IPv4 as Node writes it; the common case, read without parsing.
  if (!address.includes(":")) return address;
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (!(parsed instanceof ipaddr.IPv6)) return parsed.toString();
  return `${new ipaddr.IPv6([...parsed.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
