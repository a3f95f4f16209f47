import type { IncomingMessage } from "node:http";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]", "::1"];

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(0, hostHeader.indexOf("]") + 1);
  return hostHeader.split(":")[0]!;
}

/** Addresses that mean "every interface": a Host header never names them. */
const EVERY_INTERFACE = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * Refuses requests whose Host or Origin is not this server's, so a web page on another site
 * cannot drive the MCP server through DNS rebinding: its requests carry the attacker's host name.
 * Accepted hosts are the loopback names (a page that a browser loads from them is already local),
 * the bound host, and `allowed.hosts` (PUBLIC_URL's and MCP_ALLOWED_HOSTS); `*` among them
 * accepts any. Binding every interface accepts no other name: the names clients use must be
 * configured.
 */
export function rebindingRefusal(
  request: IncomingMessage,
  allowed: { boundHost: string; hosts: readonly string[]; origins: readonly string[] },
): string | undefined {
  const host = request.headers.host;
  if (!host) return "Missing Host header";
  const hostname = hostnameOf(host).toLowerCase();
  const named = EVERY_INTERFACE.has(allowed.boundHost) ? allowed.hosts : [allowed.boundHost, ...allowed.hosts];
  const hosts = new Set([...LOOPBACK, ...named].map((name) => name.toLowerCase()));
  if (!hosts.has("*") && !hosts.has(hostname)) return `Host "${host}" is not allowed`;
  const origin = request.headers.origin;
  if (!origin) return undefined;
  if (allowed.origins.includes(origin)) return undefined;
  try {
    if (new URL(origin).host.toLowerCase() === host.toLowerCase()) return undefined;
  } catch {
    return `Origin "${origin}" is not a valid origin`;
  }
  return `Origin "${origin}" is not allowed`;
}
