import compression from "compression";
import express, { Express, RequestHandler } from "express";
import { allowsTransport } from "../../core/action-transports";
import { CONNECTION_TYPE } from "../../core/constants";
import type { HeraldServer } from "../../core/server";
import { actionHandler } from "./action-handler";
import { actionRouter } from "./action-router";
import { corsFor } from "./cors";
import { crossSiteCheck, refuseCrossSite } from "./cross-site";
import { errorHandler, notFound } from "./error-handler";
import { handlerSequence } from "./handler-sequence";
import { COMPRESSION_THRESHOLD } from "./json-body";
import { serveMounts } from "./mounts";
import { assignRequestId } from "./request-id";
import { RequestOrigin, requestOrigin } from "./request-origin";
import { lingerAfterAnswer } from "./refused-socket";
import { shuttingDown } from "../../core/shutting-down";
import type { RequestTracker } from "./request-tracker";
import { sendError } from "./response-writer";
import { securityHeaders } from "./security-headers";
import type { HttpSettings } from "./settings";
import { staticFiles } from "./static-files";
import { CLIENT_MODULE_PATH, clientModuleFolder } from "./client-module";

/**
 * What every request gets first, as one middleware: tracking for shutdown, its id, the security
 * headers; and, once the server is shutting down, its refusal.
 */
function everyRequest(tracker: RequestTracker, origin: RequestOrigin, production: boolean): RequestHandler {
  const setSecurityHeaders = securityHeaders(origin);
  return (req, res, next) => {
    const accepted = tracker.begin(res);
    assignRequestId(req, res);
    setSecurityHeaders(req, res);
    if (accepted) return next();
    lingerAfterAnswer(req.socket);
    void sendError(res, shuttingDown(), production);
  };
}

/**
 * The Express application of the web transport, in order: request id and security headers,
 * CORS (when origins are configured), mounts (each with its cross-site check), the cross-site
 * refusal of what else falls beneath the API prefix, actions beneath it, herald/client's browser
 * modules, static files (compressed), then 404 and the error body. Action answers are compressed by the response
 * writer, which knows their size.
 */
export function createHttpApp(server: HeraldServer, settings: HttpSettings, tracker: RequestTracker): Express {
  const app = express();
  app.disable("x-powered-by");
  // Already checked at load by the caller-address rule, which reads the same setting.
  app.set("trust proxy", server.config.trustProxy);
  app.set("query parser", "simple");
  const origin = requestOrigin(server.config.trustProxy, server.callerAddress);
  const crossSite = crossSiteCheck(settings.corsOrigins);
  const bodyLimits = { bodyLimit: settings.bodyLimit, fileLimit: settings.fileLimit, maxFiles: settings.maxFiles, paramsBounds: server.config.paramsBounds };
  // The boot already refuses a route on an action that leaves out the web; this keeps the router to its rule.
  const webActions = server.registry.list().filter((entry) => allowsTransport(entry.action, CONNECTION_TYPE.web));
  app.use(
    handlerSequence([
      everyRequest(tracker, origin, server.config.production),
      // Without configured origins CORS adds nothing to any response.
      ...(settings.corsOrigins.length > 0 ? [corsFor(settings.corsOrigins)] : []),
      serveMounts(server.httpMounts, bodyLimits, crossSite),
      refuseCrossSite(settings.apiPrefix, crossSite),
      actionRouter(settings.apiPrefix, webActions, (entry) => actionHandler(entry, { server, bodyLimits, tracker, origin })),
    ]),
  );
  // Revalidated on every load (ETag): a page must not keep a client older than the server it calls.
  app.use(CLIENT_MODULE_PATH, compression({ threshold: COMPRESSION_THRESHOLD }), staticFiles(clientModuleFolder(), 0));
  app.use(compression({ threshold: COMPRESSION_THRESHOLD }), staticFiles(server.app.public, settings.staticMaxAge));
  app.use(notFound);
  app.use(errorHandler({ production: server.config.production, bodyLimit: settings.bodyLimit, logger: server.logger }));
  return app;
}
