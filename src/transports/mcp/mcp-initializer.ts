import { injectable } from "tsyringe";
import { RUN_MODE } from "../../core/constants";
import type { Initializer } from "../../core/initializer";
import { HeraldServer } from "../../core/server";
import { McpCatalog } from "./catalog";
import { buildMcpServer, connectionFor } from "./mcp-server";
import { readMcpSettings } from "./settings";
import { StreamableHttpEndpoint } from "./streamable-http";

/** Serves the app's actions over MCP's Streamable HTTP transport on the web server. */
@injectable()
export class McpInitializer implements Initializer {
  name = "mcp";
  runModes = [RUN_MODE.server];
  private endpoint: StreamableHttpEndpoint | undefined;

  constructor(private readonly herald: HeraldServer) {}

  async initialize(): Promise<void> {
    const settings = readMcpSettings(this.herald.config);
    const catalog = new McpCatalog(this.herald.registry.list());
    const endpoint = new StreamableHttpEndpoint(
      () => buildMcpServer(this.herald, catalog),
      async (call, request) => {
        const entry = catalog.tools.get(call.params.name);
        if (!entry) return undefined;
        const connection = connectionFor({ requestInfo: { headers: request.headers }, ...sessionOf(request) } as never);
        return this.herald.dispatcher.run(entry.registered.name, call.params.arguments ?? {}, connection);
      },
      settings,
      () => this.herald.config.host,
      this.herald.logger,
    );
    this.endpoint = endpoint;
    this.herald.httpMounts.push({ path: settings.path, parseJson: true, handler: (request, response) => endpoint.handle(request, response) });
  }

  async stop(): Promise<void> {
    await this.endpoint?.close();
  }
}

function sessionOf(request: import("node:http").IncomingMessage): { sessionId?: string } {
  const id = request.headers["mcp-session-id"];
  return typeof id === "string" ? { sessionId: id } : {};
}
