import { injectable } from "tsyringe";
import { RUN_MODE } from "../../core/constants";
import type { Initializer } from "../../core/initializer";
import { HeraldServer } from "../../core/server";
import { McpCatalog } from "./catalog";
import { readMcpSettings, type McpSettings } from "./settings";
import type { StreamableHttpEndpoint } from "./streamable-http";

/** Serves the app's actions over MCP's Streamable HTTP transport on the web server. */
@injectable()
export class McpInitializer implements Initializer {
  name = "mcp";
  runModes = [RUN_MODE.server];
  private endpoint: StreamableHttpEndpoint | undefined;

  constructor(private readonly herald: HeraldServer) {}

  async initialize(): Promise<void> {
    const settings = readMcpSettings(this.herald.config);
    // Built now, so that a tool name clash fails the boot rather than the first MCP call.
    const catalog = new McpCatalog(this.herald.registry.list());
    this.herald.httpMounts.push({
      path: settings.path,
      parseJson: true,
      // request-guard.ts checks Host and Origin against DNS rebinding, MCP_ALLOWED_ORIGINS included.
      checksOrigin: true,
      handler: (request, response) => this.endpointFor(catalog, settings).handle(request, response),
    });
  }

  /** The SDK is large: it is loaded by the first MCP request, not by every boot. */
  private endpointFor(catalog: McpCatalog, settings: McpSettings): StreamableHttpEndpoint {
    if (this.endpoint) return this.endpoint;
    const { buildMcpServer, connectionFor } = require("./mcp-server") as typeof import("./mcp-server");
    const { StreamableHttpEndpoint } = require("./streamable-http") as typeof import("./streamable-http");
    this.endpoint = new StreamableHttpEndpoint(
      () => buildMcpServer(this.herald, catalog),
      async (call, request, controller) => {
        const entry = catalog.tools.get(call.params.name);
        if (!entry) return undefined;
        const connection = connectionFor({ requestInfo: { headers: request.headers }, ...sessionOf(request) } as never);
        return this.herald.dispatcher.run(entry.registered.name, call.params.arguments ?? {}, connection, { controller });
      },
      settings,
      () => this.herald.config.host,
      this.herald.logger,
      this.herald.callerAddress,
    );
    return this.endpoint;
  }

  async stop(): Promise<void> {
    await this.endpoint?.close();
  }
}

function sessionOf(request: import("node:http").IncomingMessage): { sessionId?: string } {
  const id = request.headers["mcp-session-id"];
  return typeof id === "string" ? { sessionId: id } : {};
}
