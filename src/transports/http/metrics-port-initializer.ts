import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { injectable } from "tsyringe";
import { RUN_MODE } from "../../core/constants";
import { ErrorType, TypedError } from "../../core/errors";
import type { Initializer } from "../../core/initializer";
import { HeraldServer } from "../../core/server";
import { serverReadiness } from "../../core/readiness";
import { HttpAccessLog } from "./access-log";
import { metricsEndpoint } from "./metrics-endpoint";
import { probeResponder } from "./probes";
import { sendError } from "./response-writer";
import { requestTarget } from "./request-target";
import { type SiteRootHandler, siteRootListener } from "./site-root";

/** The request listener of a port that serves only site-root handlers: anything else is 404. */
export function siteRootPortListener(server: HeraldServer, handlers: readonly SiteRootHandler[]): (req: IncomingMessage, res: ServerResponse) => void {
  return siteRootListener(handlers, (req, res) => {
    const path = requestTarget(req)?.pathname ?? req.url ?? "";
    void sendError(res, new TypedError({ message: `Nothing is served at ${req.method} ${path}`, type: ErrorType.CONNECTION_NOT_FOUND, key: "path", value: path }), server.codec);
  });
}

/**
 * The probes (`/livez`, `/readyz`) and `/metrics` of a process without the web transport
 * (`herald start --workers-only`), on a port of its own (METRICS_PORT) and `HOST`; none when
 * METRICS_PORT is unset. `/metrics` there follows the same rules as on the web port.
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
    if (port === undefined) return;
    const access = new HttpAccessLog(this.server.logger);
    const probes = probeResponder({ readiness: serverReadiness(this.server), closing: () => this.listener === undefined, access });
    const listener = createServer(siteRootPortListener(this.server, [probes, metricsEndpoint(this.server, access)]));
    await new Promise<void>((resolve, reject) => {
      listener.once("error", (cause) =>
        reject(new TypedError({ message: `/metrics could not listen on ${config.host}:${port}: ${cause.message}`, type: ErrorType.SERVER_START, cause })),
      );
      listener.listen(port, config.host, resolve);
    });
    this.listener = listener;
    this.server.logger.info({ port: (listener.address() as AddressInfo).port }, "operations: /livez, /readyz and /metrics served on a port of their own");
  }

  async stop(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    if (!listener) return;
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
}
