import type { Connection } from "./connection";

/**
 * Who a call's caller is, for what belongs to one caller (an idempotency key, an MCP task): the
 * session, else the access token's client and user, else the address (or the transport, for a
 * caller without one: the command line, stdio).
 */
export function callerScope(connection: Connection): string {
  const sessionId = connection.session?.id;
  if (sessionId) return `session:${sessionId}`;
  if (connection.auth) return `token:${connection.auth.clientId}:${connection.auth.subject ?? ""}`;
  return `address:${connection.remoteAddress ?? connection.type}`;
}
