import { readFileSync } from "node:fs";
import { createServer as createHttpServer, Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { injectable } from "tsyringe";
import { RUN_MODE } from "../../core/constants";
import { ErrorType, TypedError } from "../../core/errors";
import { APP_INITIALIZERS, type Initializer } from "../../core/initializer";
import { HeraldServer } from "../../core/server";
import { capConnectionsPerAddress } from "./connection-cap";
import { continueWithinLimit } from "./expect-continue";
import { createHttpListener, type HttpRequestListener } from "./http-app";
import { RequestTracker } from "./request-tracker";
import { HttpSettings, readHttpSettings, removedHttpSettings } from "./settings";

/** The host to put in `server.url`: a wildcard address is reached through the loopback one. */
function reachableHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

function listen(listener: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(port, host, () => {
      listener.off("error", reject);
      resolve();
    });
  });
}

/**
 * The web transport on `HOST`:`PORT`: node:http answering the actions beneath the API prefix, and
 * Express 5 serving the mounts other parts registered and the app's public folder.
 */
@injectable()
export class HttpInitializer implements Initializer {
  readonly name = "web";
  readonly runModes = [RUN_MODE.server];
  /**
   * After the app's own initializers, so it serves only once what the actions need is ready; after
   * what the actions use and what mounts a handler here, which then stop once it has drained.
   */
  readonly dependsOn = [APP_INITIALIZERS, "sessions", "channels", "tasks", "rate-limit", "oauth", "openapi", "mcp"];
  private settings!: HttpSettings;
  private handle: HttpRequestListener | undefined;
  private tracker: RequestTracker | undefined;
  private listener: Server | undefined;

  constructor(private readonly server: HeraldServer) {}

  /** Reads the settings and builds the routes, so a bad setting or route fails the boot. */
  initialize(): void {
    this.settings = readHttpSettings(this.server.config);
    for (const { name, instead } of removedHttpSettings(this.server.config)) {
      this.server.logger.warn({ setting: name }, `web: ${name} is no longer read and is ignored: ${instead}`);
    }
    this.tracker = new RequestTracker();
    this.handle = createHttpListener(this.server, this.settings, this.tracker);
  }

  async start(): Promise<void> {
    const { config } = this.server;
    const { tls, headersTimeout, requestTimeout } = this.settings;
    // Node checks these timeouts every connectionsCheckingInterval (30 s by default): at least
    // twice within the shorter one, so a slow client is cut off close to its deadline.
    const timeouts = { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(30_000, Math.max(50, headersTimeout / 2)) };
    const listener = tls
      ? (createHttpsServer({ ...timeouts, cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, this.handle) as unknown as Server)
      : createHttpServer(timeouts, this.handle);
    capConnectionsPerAddress(listener, this.settings.maxConnectionsPerAddress, { tls: Boolean(tls), codec: this.server.codec });
    continueWithinLimit(listener, Math.max(this.settings.bodyLimit, this.settings.fileLimit));
    this.tracker!.watch(listener);
    try {
      await listen(listener, config.port, config.host);
    } catch (cause) {
      throw new TypedError({
        message: `The web server could not listen on ${config.host}:${config.port}: ${(cause as Error).message}`,
        type: ErrorType.SERVER_START,
        cause,
      });
    }
    this.listener = listener;
    const { port } = listener.address() as AddressInfo;
    this.server.url = `${tls ? "https" : "http"}://${reachableHost(config.host)}:${port}`;
    this.server.httpServer = listener;
  }

  async stop(): Promise<void> {
    const { listener, tracker } = this;
    if (!listener || !tracker) return;
    this.listener = undefined;
    await tracker.close(listener, this.settings.shutdownTimeout);
    this.server.url = undefined;
    this.server.httpServer = undefined;
  }
}
