import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { HeraldServer } from "../../core/server";
import { needsSignedInCaller } from "../../core/signed-in-callers";
import { McpAsking } from "./asking";
import { McpCatalog } from "./catalog";
import { buildMcpServer } from "./mcp-server";
import { readMcpSettings } from "./settings";

/**
 * Serves the app over stdio for desktop MCP clients, of either protocol generation: the first
 * message chooses, and one server then serves the connection. stdout carries the protocol, so the
 * server must have been booted in the `mcp` run mode, whose logs go to stderr. Resolves when the
 * client disconnects.
 */
export async function serveMcpOverStdio(herald: HeraldServer): Promise<void> {
  // No one signs in over stdio: what only a signed-in caller may call is not offered.
  const globalMiddleware = herald.dispatcher.globalMiddleware;
  const catalog = new McpCatalog(herald.registry.list(), { leaveOut: (registered) => needsSignedInCaller([...globalMiddleware, ...registered.middleware]) });
  const asking = McpAsking.forStdio(readMcpSettings(herald.config).requestStateKey);
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
  const handle = serveStdio(() => buildMcpServer(herald, catalog, asking), {
    onerror: (error) => herald.logger.debug({ err: error }, "mcp: stdio message refused or failed in the SDK"),
  });
  await closed;
  await handle.close();
}
