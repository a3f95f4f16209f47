import compression from "compression";
import express, { Express, Request, Response } from "express";
import { ErrorType, TypedError } from "../../core/errors";
import type { HeraldServer } from "../../core/server";
import { actionHandler } from "./action-handler";
import { actionRouter } from "./action-router";
import { bodyReader } from "./body";
import { corsFor } from "./cors";
import { errorHandler, notFound } from "./error-handler";
import { serveMounts } from "./mounts";
import { requestId } from "./request-id";
import type { RequestTracker } from "./request-tracker";
import { UNCOMPRESSED } from "./response-writer";
import { securityHeaders } from "./security-headers";
import type { HttpSettings } from "./settings";
import { staticFiles } from "./static-files";

const COMPRESSION_THRESHOLD = 1024;

function shouldCompress(req: Request, res: Response): boolean {
  return !res.locals[UNCOMPRESSED] && compression.filter(req, res);
}

function trustProxy(app: Express, value: HttpSettings["trustProxy"]): void {
  try {
    app.set("trust proxy", value);
  } catch (cause) {
    throw new TypedError({
      message: `Invalid environment variable HTTP_TRUST_PROXY: ${(cause as Error).message}`,
      type: ErrorType.CONFIG_ERROR,
      key: "HTTP_TRUST_PROXY",
      value,
    });
  }
}

/**
 * The Express application of the web transport, in order: request id, security headers, CORS,
 * mounts, compression, actions beneath the API prefix, static files, then 404 and the error body.
 */
export function createHttpApp(server: HeraldServer, settings: HttpSettings, tracker: RequestTracker): Express {
  const app = express();
  app.disable("x-powered-by");
  trustProxy(app, settings.trustProxy);
  app.set("query parser", "simple");
  app.use((_req, res, next) => {
    res.locals.signal = tracker.begin(res);
    next();
  });
  app.use(requestId());
  app.use(securityHeaders());
  app.use(corsFor(settings.corsOrigins));
  app.use(serveMounts(server.httpMounts, settings.bodyLimit));
  app.use(compression({ threshold: COMPRESSION_THRESHOLD, filter: shouldCompress }));
  const readBody = bodyReader(settings.bodyLimit, settings.maxFiles);
  app.use(
    settings.apiPrefix,
    actionRouter(server.registry.list(), (entry) => actionHandler(entry, { server, readBody, tracker })),
  );
  app.use(staticFiles(server.app.public, settings.staticMaxAge));
  app.use(notFound);
  app.use(errorHandler({ production: server.config.production, bodyLimit: settings.bodyLimit, logger: server.logger }));
  return app;
}
