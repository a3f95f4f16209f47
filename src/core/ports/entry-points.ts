/**
 * The paths on the web port that parts of Herald other than the actions serve, each announced by
 * its part during `initialize`, so that the web transport's welcome page can point to them
 * without importing that part. A part that does not run announces nothing.
 */
export interface EntryPoints {
  /** The API reference page, `/api/docs`. */
  apiReference?: string;
  /** The OpenAPI document, `/api/openapi.json`. */
  openApiDocument?: string;
  /** The MCP endpoint (Streamable HTTP), `/mcp`. */
  mcp?: string;
  /** The path WebSocket upgrades are taken at, `/ws`. */
  websocket?: string;
}
