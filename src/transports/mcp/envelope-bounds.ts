/** The longest JSON-RPC id a request may carry: far beyond a UUID, far below what echoing it costs. */
export const MAX_JSONRPC_ID_LENGTH = 256;

/** The one revision of MCP whose Streamable HTTP took JSON-RPC batches; 2025-06-18 removed them. */
const BATCHING_REVISION = "2025-03-26";

/**
 * Why the envelope of a POST is refused before the SDK reads it, or undefined: a batch under a
 * revision that has none (the `MCP-Protocol-Version` header names it; a request without the
 * header is of 2025-03-26, as the specification says), or a string id longer than
 * MAX_JSONRPC_ID_LENGTH, which every answer would echo.
 */
export function envelopeRefusal(body: unknown, protocolVersion: string | undefined): string | undefined {
  if (Array.isArray(body) && protocolVersion !== undefined && protocolVersion !== BATCHING_REVISION) {
    return `MCP ${protocolVersion} has no JSON-RPC batches: send one message per request`;
  }
  for (const message of Array.isArray(body) ? body : [body]) {
    const id = (message as { id?: unknown } | null | undefined)?.id;
    if (typeof id === "string" && id.length > MAX_JSONRPC_ID_LENGTH) return `A JSON-RPC id is at most ${MAX_JSONRPC_ID_LENGTH} characters`;
  }
  return undefined;
}
