import type { IncomingMessage } from "node:http";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]", "::1"];

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(0, hostHeader.indexOf("]") + 1);
  return hostHeader.split(":")[0]!;
}

/**
 * Refuses requests whose Host or Origin is not this server's, so a web page on another site
 * cannot drive a local MCP server through DNS rebinding.
 */
export function rebindingRefusal(
  request: IncomingMessage,
  allowed: { boundHost: string; hosts: readonly string[]; origins: readonly string[] },
): string | undefined {
  const host = request.headers.host;
  if (!host) return "Missing Host header";
  const hostname = hostnameOf(host).toLowerCase();
  const hosts = new Set([...LOOPBACK, allowed.boundHost, ...allowed.hosts].map((name) => name.toLowerCase()));
  const anyInterface = allowed.boundHost === "0.0.0.0" || allowed.boundHost === "::";
  if (!anyInterface && !hosts.has(hostname)) return `Host "${host}" is not allowed`;
  if (anyInterface && allowed.hosts.length && !hosts.has(hostname)) return `Host "${host}" is not allowed`;
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
