import { injectable } from "tsyringe";
import { ChannelBroker } from "../../channels/channel-broker";
import { ChannelSubscriptions } from "../../channels/channel-subscriptions";
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
    const { buildMcpServer } = require("./mcp-server") as typeof import("./mcp-server");
    const { StreamableHttpEndpoint } = require("./streamable-http") as typeof import("./streamable-http");
    const { container } = this.herald;
    this.endpoint = new StreamableHttpEndpoint(() => buildMcpServer(this.herald, catalog), catalog, settings, this.herald, () =>
      container.isRegistered(ChannelSubscriptions, true)
        ? { subscriptions: container.resolve(ChannelSubscriptions), broker: container.resolve(ChannelBroker) }
        : undefined,
    );
    return this.endpoint;
  }

  async stop(): Promise<void> {
    await this.endpoint?.close();
  }
}
