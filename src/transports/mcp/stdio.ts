import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { HeraldServer } from "../../core/server";
import { McpCatalog } from "./catalog";
import { buildMcpServer } from "./mcp-server";

/**
 * Serves the app over stdio for desktop MCP clients. stdout carries the protocol, so the server
 * must have been booted in the `mcp` run mode, whose logs go to stderr. Resolves when the client
 * disconnects.
 */
export async function serveMcpOverStdio(herald: HeraldServer): Promise<void> {
  const server = buildMcpServer(herald, new McpCatalog(herald.registry.list()));
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await closed;
  await server.close();
}
