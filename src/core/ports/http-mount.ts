import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A handler that another part of Herald (MCP, the API reference page …) asks the web transport to
 * serve, so that no transport needs to import another. Registered during `initialize`.
 */
export interface HttpMount {
  /** A path prefix, matched from the server root, e.g. `/mcp`. */
  path: string;
  /**
   * Receives Node's own request and response. The body is left unread unless `parseJson` is
   * set: a mount that reads it itself also bounds it itself.
   */
  handler(request: IncomingMessage & { body?: unknown }, response: ServerResponse): Promise<void> | void;
  /**
   * Read a JSON body (`application/json` or `application/*+json`) into `request.body` first, as
   * an action's body is read: within HTTP_BODY_LIMIT (413 as soon as it is over, chunked or
   * not), PARAMS_MAX_KEYS and PARAMS_MAX_VALUES checked on its text before it is parsed (413),
   * gzip, deflate or br decoded, utf-8 only. It must be a JSON object or array; malformed JSON or
   * another value is 400. These refusals are Herald's error body, the mount never sees the
   * request. An empty body leaves `request.body` undefined, and a body of another type is left
   * unread for the mount to answer.
   */
  parseJson?: boolean;
  /**
   * The mount checks `Origin` (and `Host`) itself, as the MCP endpoint does against DNS
   * rebinding. Otherwise a request that may change state (any method but GET, HEAD, OPTIONS)
   * sent by another site's page is refused `403 CONNECTION_FORBIDDEN` before the mount sees it,
   * by the rule that guards actions (HTTP_CORS_ORIGINS; see docs/http.md, Cross-site requests).
   */
  checksOrigin?: boolean;
}
