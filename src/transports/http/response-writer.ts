import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { ActionResult } from "../../core/dispatcher";
import { errorBody } from "../../core/error-body";
import type { TypedError } from "../../core/errors";
import type { Logger } from "../../core/logger";
import { encodeResponse } from "../../core/response-encoder";
import { DispatchedStream } from "../../core/dispatched-stream";
import { releaseHeldHeaders } from "./held-headers";
import { sendJsonText } from "./json-body";
import { sendEventStream } from "./server-sent-events";

export function sendError(res: ServerResponse, error: TypedError, production: boolean): Promise<void> | undefined {
  return sendJsonText(res, error.status, JSON.stringify(errorBody(error, production)));
}

/** The action's response as JSON; one JSON cannot carry throws the encoder's CONNECTION_SERVER_ERROR. */
export function sendJson(res: ServerResponse, actionName: string, value: unknown): Promise<void> | undefined {
  return sendJsonText(res, 200, encodeResponse(actionName, value));
}

/** A `Response` as the action built it: its status, headers and streamed body. */
async function sendWebResponse(res: ServerResponse, response: Response, logger: Logger): Promise<void> {
  releaseHeldHeaders(res);
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  if (!response.body) return void res.end();
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream), res).catch((error: unknown) => {
    logger.debug({ err: error }, "response body stream ended early");
  });
}

function discard(value: unknown): void {
  if (value instanceof Response) void value.body?.cancel().catch(() => undefined);
  // Ends the call: its runAfter and its log line wait for the stream's end.
  else if (value instanceof DispatchedStream) void value.return();
}

export interface WriteContext {
  signal: AbortSignal;
  production: boolean;
  logger: Logger;
  /** Called before an event stream starts, so shutdown can end it. */
  onStream(): void;
}

/**
 * Writes what the dispatcher returned onto the HTTP response; returns a promise only when the
 * writing goes on after the call (compression, streams), so a small JSON answer costs no await.
 */
export function writeResult(res: ServerResponse, result: ActionResult, context: WriteContext): Promise<void> | undefined {
  const value = result.response;
  if (res.destroyed || res.writableEnded) {
    discard(value);
    return undefined;
  }
  if (result.error) return sendError(res, result.error, context.production);
  if (value instanceof Response) return sendWebResponse(res, value, context.logger);
  if (value instanceof DispatchedStream) {
    context.onStream();
    releaseHeldHeaders(res);
    return sendEventStream(res, value, context);
  }
  return sendJson(res, result.actionName, value);
}
