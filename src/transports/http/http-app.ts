import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "compression";
import express, { Express, RequestHandler } from "express";
import { allowsTransport } from "../../core/action-transports";
import { isTracing } from "../../core/tracing";
import { CONNECTION_TYPE } from "../../core/constants";
import { serverReadiness } from "../../core/readiness";
import type { HeraldServer } from "../../core/server";
import { HttpAccessLog } from "./access-log";
import { actionHandler } from "./action-handler";
import { actionPath } from "./action-path";
import type { ActionTarget } from "./action-router";
import type { BodyLimits } from "./body";
import { CLIENT_MODULE_PATH, clientModuleFolder } from "./client-module";
import { corsFor, corsForActions } from "./cors";
import { crossSiteCheck } from "./cross-site";
import { errorHandler, type FailureOptions, notFound } from "./error-handler";
import { handlerSequence } from "./handler-sequence";
import type { HttpMetrics } from "./http-metrics";
import { COMPRESSION_THRESHOLD } from "./json-body";
import { metricsEndpoint } from "./metrics-endpoint";
import { serveMounts } from "./mounts";
import { ParseQueue } from "./parse-queue";
import { probeResponder } from "./probes";
import { requestOrigin } from "./request-origin";
import { type RequestStart, requestStart } from "./request-start";
import type { RequestTracker } from "./request-tracker";
import { compileRoutes } from "./route-table";
import { HttpServerSpan } from "./http-span";
import { routeTemplate } from "./route-template";
import type { HttpSettings } from "./settings";
import type { SiteRootHandler } from "./site-root";
import { staticFiles } from "./static-files";
import { welcomePage } from "./welcome-page";

export type HttpRequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The web transport's metrics, when they are on: their module loads the semantic conventions. */
function httpMetricsOf(server: HeraldServer): HttpMetrics | undefined {
  const { meter } = server.metrics;
  if (!meter) return undefined;
  const { HttpMetrics } = require("./http-metrics") as typeof import("./http-metrics");
  return new HttpMetrics(meter, () => server.httpServer);
}

function startEveryRequest(start: RequestStart): RequestHandler {
  return (req, res, next) => {
    const requestId = start(req, res);
    if (requestId === undefined) return;
    res.locals.requestId = requestId;
    next();
  };
}

/**
 * The request listener of the web transport. The probes (`/livez`, `/readyz`) and `/metrics` are
 * answered first, before anything a request starts with. Every request beneath the API prefix but a mount's
 * is answered by the action path, straight from node:http (see `actionPath`). The rest goes to
 * the Express application, in order: the request's start (id, security headers, tracking), CORS
 * (when origins are configured), mounts (each with its cross-site check), herald/client's
 * browser modules, static files (compressed), in development the welcome page at `/`, then 404
 * and the error body. Action answers are compressed by the response writer, which knows their size.
 */
export function createHttpListener(server: HeraldServer, settings: HttpSettings, tracker: RequestTracker): HttpRequestListener {
  const { config } = server;
  const origin = requestOrigin(config.trustProxy, server.callerAddress);
  const crossSite = crossSiteCheck(settings.corsOrigins, origin.host);
  const bodyLimits: BodyLimits = {
    bodyLimit: settings.bodyLimit,
    fileLimit: settings.fileLimit,
    maxFiles: settings.maxFiles,
    paramsBounds: config.paramsBounds,
    parseQueue: new ParseQueue(settings.parseQueueLimit),
  };
  const failure: FailureOptions = { codec: server.codec, bodyLimit: settings.bodyLimit, logger: server.logger };
  const access = new HttpAccessLog(server.logger);
  const starts = requestStart(tracker, origin, server.codec, access);
  // The boot already refuses a route on an action that leaves out the web; this keeps the router to its rule.
  const webActions = server.registry.list().filter((entry) => allowsTransport(entry.action, CONNECTION_TYPE.web));
  const metrics = httpMetricsOf(server);
  const routes = compileRoutes<ActionTarget>(settings.apiPrefix, webActions, (entry) => {
    const call = actionHandler(entry, { server, bodyLimits, tracker, origin });
    const route = routeTemplate(settings.apiPrefix, entry);
    return { entry, call: metrics ? metrics.routed(call, route) : call, route };
  });

  const app: Express = express();
  app.disable("x-powered-by");
  // Already checked at load by the caller-address rule, which reads the same setting.
  app.set("trust proxy", config.trustProxy);
  app.set("query parser", "simple");
  app.use(
    handlerSequence([
      startEveryRequest(starts.setting),
      // Without configured origins CORS adds nothing to any response.
      ...(settings.corsOrigins.length > 0 ? [corsFor(settings.corsOrigins)] : []),
      serveMounts(server.httpMounts, bodyLimits, crossSite),
    ]),
  );
  // Revalidated on every load (ETag): a page must not keep a client older than the server it calls.
  app.use(CLIENT_MODULE_PATH, compression({ threshold: COMPRESSION_THRESHOLD }), staticFiles(clientModuleFolder(), 0));
  // After the public folder, so that the app's own index.html wins; a newcomer's page, never a deployment's.
  const welcome = config.env === "development" ? [welcomePage(server, settings, origin)] : [];
  app.use(compression({ threshold: COMPRESSION_THRESHOLD }), staticFiles(server.app.public, settings.staticMaxAge), ...welcome);
  app.use(notFound);
  app.use(errorHandler(failure));

  const cors = settings.corsOrigins.length > 0 ? corsForActions(settings.corsOrigins) : undefined;
  const answered = actionPath({ routes, mounts: server.httpMounts, cors, crossSite, start: starts.holding, failure, access });
  const probes = probeResponder({ readiness: serverReadiness(server), closing: () => tracker.isClosing, access });
  // Answered before anything else, and not measured: a scrape or a probe is not the app's traffic.
  const siteRoot: SiteRootHandler[] = [probes, metricsEndpoint(server, access)];
  return (req, res) => {
    for (const handler of siteRoot) if (handler(req, res)) return;
    metrics?.begin(req, res);
    if (answered(req, res)) return;
    if (isTracing()) HttpServerSpan.outsideActions(req, res, server.httpMounts).within(() => app(req, res));
    else app(req, res);
  };
}
