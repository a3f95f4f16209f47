import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { injectable } from "tsyringe";
import { RUN_MODE } from "../../core/constants";
import { ErrorType, TypedError } from "../../core/errors";
import type { Initializer } from "../../core/initializer";
import { HeraldServer } from "../../core/server";
import { metricsEndpoint } from "./metrics-endpoint";
import { sendError } from "./response-writer";
import { pathOf, type SiteRootHandler, siteRootListener } from "./site-root";

/** The request listener of a port that serves only site-root handlers: anything else is 404. */
export function siteRootPortListener(server: HeraldServer, handlers: readonly SiteRootHandler[]): (req: IncomingMessage, res: ServerResponse) => void {
  return siteRootListener(handlers, (req, res) => {
    const path = pathOf(req);
    void sendError(res, new TypedError({ message: `Nothing is served at ${req.method} ${path}`, type: ErrorType.CONNECTION_NOT_FOUND, key: "path", value: path }), server.codec);
  });
}

/**
 * `/metrics` of a process without the web transport (`herald start --workers-only`), on a port of
 * its own (METRICS_PORT) and `HOST`; none when METRICS_PORT is unset or metrics are off.
 */
@injectable()
export class MetricsPortInitializer implements Initializer {
  readonly name = "metrics-port";
  readonly runModes = [RUN_MODE.workers];
  private listener: Server | undefined;

  constructor(private readonly server: HeraldServer) {}

  async start(): Promise<void> {
    const { metrics, config } = this.server;
    const { port } = metrics.settings;
    if (port === undefined || !metrics.scrapable) return;
    const listener = createServer(siteRootPortListener(this.server, [metricsEndpoint(this.server)]));
    await new Promise<void>((resolve, reject) => {
      listener.once("error", (cause) =>
        reject(new TypedError({ message: `/metrics could not listen on ${config.host}:${port}: ${cause.message}`, type: ErrorType.SERVER_START, cause })),
      );
      listener.listen(port, config.host, resolve);
    });
    this.listener = listener;
    this.server.logger.info({ port: (listener.address() as AddressInfo).port }, "metrics: /metrics served on a port of its own");
  }

  async stop(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    if (!listener) return;
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
}
