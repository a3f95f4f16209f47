import type { ErrorRequestHandler, RequestHandler } from "express";
import { toTypedError } from "../../core/error-body";
import { ErrorType, TypedError } from "../../core/errors";
import type { Logger } from "../../core/logger";
import { bodyError } from "./body";
import { sendError } from "./response-writer";

/** The answer for a path that no mount, action or static file serves. */
export const notFound: RequestHandler = (req) => {
  throw new TypedError({
    message: `Nothing is served at ${req.method} ${req.path}`,
    type: ErrorType.CONNECTION_NOT_FOUND,
    key: "path",
    value: req.path,
  });
};

function hasClientStatus(error: unknown): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

/**
 * Every error that reaches Express (a bad body, an undecodable path, a throwing mount, a 404/405)
 * as the core error body with its status. Errors the dispatcher returned never come here.
 */
export function errorHandler(options: { production: boolean; bodyLimit: number; logger: Logger }): ErrorRequestHandler {
  return (thrown, req, res, _next) => {
    const error = thrown instanceof TypedError ? thrown : hasClientStatus(thrown) ? bodyError(thrown, options.bodyLimit) : toTypedError(thrown, options.production);
    if (error.status >= 500) options.logger.error({ err: error.cause ?? error, path: req.path, requestId: res.locals.requestId }, "request failed");
    if (res.headersSent) return void res.destroy();
    void sendError(res, error, options.production);
  };
}
