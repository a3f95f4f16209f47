import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A handler that another part of Herald (MCP, the API reference page …) asks the web transport to
 * serve, so that no transport needs to import another. Registered during `initialize`.
 */
export interface HttpMount {
  /** A path prefix, matched from the server root, e.g. `/mcp`. */
  path: string;
  /** Receives Node's own request and response; the body is left unread unless `parseJson` is set. */
  handler(request: IncomingMessage & { body?: unknown }, response: ServerResponse): Promise<void> | void;
  /** Parse a JSON body (within the configured limit) into `request.body` first. */
  parseJson?: boolean;
}
