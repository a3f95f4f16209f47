import type { ServerResponse } from "node:http";
import type { ErrorRequestHandler, RequestHandler } from "express";
import { ErrorType, TypedError } from "../../core/errors";
import type { Logger } from "../../core/logger";
import type { ResponseCodec } from "../../core/response-codec";
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

export interface FailureOptions {
  codec: ResponseCodec;
  bodyLimit: number;
  logger: Logger;
}

/**
 * Answers a request whose handling threw (a bad body, an undecodable path, a throwing mount, a
 * 404/405) with the core error body and its status; a server error is logged. Errors the
 * dispatcher returned never come here. A response already under way can only be cut off.
 */
export function answerFailure(thrown: unknown, res: ServerResponse, where: { path: string; requestId: unknown }, options: FailureOptions): void {
  const error = thrown instanceof TypedError ? thrown : hasClientStatus(thrown) ? bodyError(thrown, options.bodyLimit) : options.codec.toError(thrown);
  // A busy refusal (a full parse queue) is the server protecting itself, not a failure to log at each request of a flood.
  if (error.status >= 500 && error.type !== ErrorType.CONNECTION_SERVICE_BUSY) options.logger.error({ err: error.cause ?? error, path: where.path, requestId: where.requestId }, "request failed");
  if (res.headersSent) return void res.destroy();
  void sendError(res, error, options.codec);
}

/** Every error that reaches Express, answered by `answerFailure`. */
export function errorHandler(options: FailureOptions): ErrorRequestHandler {
  return (thrown, req, res, _next) => answerFailure(thrown, res, { path: req.path, requestId: res.locals.requestId }, options);
}
