import type { IncomingMessage, ServerResponse } from "node:http";
import { injectable } from "tsyringe";
import { ChannelBroker } from "../../channels/channel-broker";
import { ChannelSubscriptions } from "../../channels/channel-subscriptions";
import { RUN_MODE } from "../../core/constants";
import type { Initializer } from "../../core/initializer";
import { HeraldServer } from "../../core/server";
import { McpCatalog } from "./catalog";
import { LOCAL_AUTHORIZATION_SERVER, METADATA_CACHE_CONTROL } from "../../core/ports/authorization-server";
import { localOAuthSettings, readMcpSettings, type McpSettings } from "./settings";
import type { McpResourceServer } from "./oauth/resource-server";
import type { StreamableHttpEndpoint } from "./streamable-http";
import type { McpTasks } from "./tasks";
import { IDEMPOTENCY_STORE_TOKEN } from "../../core/idempotency-store";
import { TASK_OPERATIONS } from "../../core/ports/task-operations";

const PROTECTED_RESOURCE_METADATA = "/.well-known/oauth-protected-resource";

/** The MCP conventions measure operations and sessions, not the streams a server holds open. */
export const METRIC_MCP_LISTEN_STREAMS = "herald.mcp.listen_streams";

/** Serves the app's actions over MCP's Streamable HTTP transport on the web server. */
@injectable()
export class McpInitializer implements Initializer {
  name = "mcp";
  runModes = [RUN_MODE.server];
  /** Its resource server checks the local authorization server's tokens; its listen streams are on channels. */
  readonly dependsOn = ["oauth", "channels"];
  private endpoint: StreamableHttpEndpoint | undefined;
  private resourceServer: McpResourceServer | undefined;

  constructor(private readonly herald: HeraldServer) {}

  async initialize(): Promise<void> {
    const settings = readMcpSettings(this.herald.config);
    // Built now, so that a tool name clash fails the boot rather than the first MCP call.
    const catalog = new McpCatalog(this.herald.registry.list());
    if (settings.requestStateKey === undefined && this.herald.config.production) {
      this.herald.logger.warn("mcp: MCP_REQUEST_STATE_KEY is unset, so no MCP call can ask its caller for input (connection.ask refuses with 422)");
    }
    this.herald.metrics.meter
      ?.createObservableUpDownCounter(METRIC_MCP_LISTEN_STREAMS, { unit: "{stream}", description: "Open MCP subscriptions/listen streams" })
      .addCallback((result) => result.observe(this.endpoint?.openListenStreams ?? 0));
    const { container } = this.herald;
    if (!settings.oauth && container.isRegistered(LOCAL_AUTHORIZATION_SERVER, true)) {
      const local = container.resolve(LOCAL_AUTHORIZATION_SERVER);
      settings.oauth = localOAuthSettings(local);
      local.protect({
        url: () => this.resourceServerFor(catalog, settings)!.resource.href,
        identifies: (indicator) => this.resourceServerFor(catalog, settings)!.identifies(indicator),
        scopes: catalog.scopes,
      });
    }
    this.herald.entryPoints.mcp = settings.path;
    this.herald.httpMounts.push({
      path: settings.path,
      parseJson: true,
      // request-guard.ts checks Host and Origin against DNS rebinding, MCP_ALLOWED_ORIGINS included.
      checksOrigin: true,
      handler: (request, response) => this.endpointFor(catalog, settings).handle(request, response),
    });
    if (settings.oauth) {
      this.herald.httpMounts.push({
        path: PROTECTED_RESOURCE_METADATA,
        handler: (request, response) => this.serveMetadata(request, response, this.resourceServerFor(catalog, settings)!),
      });
    }
  }

  /** RFC 9728: at the site root, and with the endpoint's path after it (`…/oauth-protected-resource/mcp`). */
  private serveMetadata(request: IncomingMessage, response: ServerResponse, resourceServer: McpResourceServer): void {
    const path = (request.url ?? "/").split("?")[0];
    const { host } = request.headers;
    const known = path === PROTECTED_RESOURCE_METADATA || path === new URL(resourceServer.metadataUrl(host)).pathname;
    const status = !known ? 404 : request.method === "GET" || request.method === "HEAD" ? 200 : 405;
    const body = status === 200 ? resourceServer.metadata(host) : { error: status === 404 ? "not_found" : "method_not_allowed" };
    response.writeHead(status, {
      "Content-Type": "application/json",
      ...(status === 200 ? { "Cache-Control": METADATA_CACHE_CONTROL } : {}),
      // Browser-based MCP clients read it from another origin.
      "Access-Control-Allow-Origin": "*",
      ...(status === 405 ? { Allow: "GET, HEAD" } : {}),
    });
    response.end(request.method === "HEAD" ? undefined : JSON.stringify(body));
  }

  private resourceServerFor(catalog: McpCatalog, settings: McpSettings): McpResourceServer | undefined {
    if (!settings.oauth) return undefined;
    if (this.resourceServer) return this.resourceServer;
    const { McpResourceServer } = require("./oauth/resource-server") as typeof import("./oauth/resource-server");
    const serverUrl = () => this.herald.url ?? `http://${this.herald.config.host}`;
    this.resourceServer = new McpResourceServer({ ...settings, oauth: settings.oauth }, serverUrl, catalog.scopes, this.herald.config.production);
    return this.resourceServer;
  }

  /** The SDK is large: it is loaded by the first MCP request, not by every boot. */
  private endpointFor(catalog: McpCatalog, settings: McpSettings): StreamableHttpEndpoint {
    if (this.endpoint) return this.endpoint;
    const { buildMcpServer } = require("./mcp-server") as typeof import("./mcp-server");
    const { StreamableHttpEndpoint } = require("./streamable-http") as typeof import("./streamable-http");
    const { McpAsking } = require("./asking") as typeof import("./asking");
    const asking = McpAsking.forHttp(settings.requestStateKey, this.herald.config.production);
    const tasks = this.tasksFor(catalog, settings);
    const { container } = this.herald;
    this.endpoint = new StreamableHttpEndpoint(
      () => buildMcpServer(this.herald, catalog, asking, tasks),
      catalog,
      settings,
      this.herald,
      () =>
        container.isRegistered(ChannelSubscriptions, true)
          ? { subscriptions: container.resolve(ChannelSubscriptions), broker: container.resolve(ChannelBroker) }
          : undefined,
      this.resourceServerFor(catalog, settings),
    );
    return this.endpoint;
  }

  /** MCP's tasks extension, where a tool may answer with a task and this process can queue its job. */
  private tasksFor(catalog: McpCatalog, settings: McpSettings): McpTasks | undefined {
    const { container } = this.herald;
    const taskTools = [...catalog.tools.values()].some((entry) => entry.taskSupport);
    if (!taskTools || !container.isRegistered(TASK_OPERATIONS, true) || !container.isRegistered(IDEMPOTENCY_STORE_TOKEN, true)) return undefined;
    const { McpTasks } = require("./tasks") as typeof import("./tasks");
    return new McpTasks(container.resolve(TASK_OPERATIONS), container.resolve(IDEMPOTENCY_STORE_TOKEN), settings.requestStateKey);
  }

  async stop(): Promise<void> {
    await this.endpoint?.close();
  }
}
