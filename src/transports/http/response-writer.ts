import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { REQUEST_ID_HEADER } from "../../core/request-id";
import type { ActionResult } from "../../core/action-result";
import type { ErrorBody } from "../../core/error-body";
import { retryAfterOf, type TypedError } from "../../core/errors";
import type { Logger } from "../../core/logger";
import type { ResponseCodec } from "../../core/response-codec";
import { releaseHeldHeaders } from "./held-headers";
import { sendJsonText } from "./json-body";
import { sendEventStream } from "./server-sent-events";

/**
 * A refusal that says when to come back (a rate limit's 429, a busy service's 503, with
 * `value.retryAfter`) tells HTTP clients so in `Retry-After` too, unless something set it already.
 */
function setRetryAfter(res: ServerResponse, error: TypedError): void {
  const retryAfter = retryAfterOf(error);
  if (retryAfter !== undefined && !res.headersSent && !res.hasHeader("Retry-After")) res.setHeader("Retry-After", String(retryAfter));
}

/** An error the dispatcher answered, as its body already shown for this environment. */
function sendErrorBody(res: ServerResponse, error: TypedError, body: ErrorBody): Promise<void> | undefined {
  setRetryAfter(res, error);
  return sendJsonText(res, error.status, JSON.stringify(body));
}

/** A refusal HTTP makes itself (a bad body, a 404, shutting down), shown as the dispatcher shows errors. */
export function sendError(res: ServerResponse, error: TypedError, codec: ResponseCodec): Promise<void> | undefined {
  return sendErrorBody(res, error, codec.errorBody(error));
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
    logger.debug({ err: error, requestId: res.getHeader(REQUEST_ID_HEADER) }, "response body stream ended early");
  });
}

/** Which responses HTTP sends as they are: a `Response` the action built. */
export function isWebResponse(response: unknown): response is Response {
  return response instanceof Response;
}

export interface WriteContext {
  signal: AbortSignal;
  logger: Logger;
  /** Called before an event stream starts, so shutdown can end it. */
  onStream(): void;
}

/**
 * Frames the dispatcher's answer on the HTTP response; returns a promise only when the writing
 * goes on after the call (compression, streams), so a small JSON answer costs no await.
 */
export function writeResult(res: ServerResponse, result: ActionResult, context: WriteContext): Promise<void> | undefined {
  const { answer } = result;
  if (res.destroyed || res.writableEnded) {
    if (answer.kind === "framed") void (answer.value as Response).body?.cancel().catch(() => undefined);
    // Ends the call: its runAfter and its log line wait for the stream's end.
    else if (answer.kind === "stream") void answer.stream.return();
    return undefined;
  }
  switch (answer.kind) {
    case "json":
      return sendJsonText(res, 200, answer.text);
    case "error":
      return sendErrorBody(res, answer.error, answer.body);
    case "framed":
      return sendWebResponse(res, answer.value as Response, context.logger);
    case "stream":
      context.onStream();
      releaseHeldHeaders(res);
      return sendEventStream(res, answer.stream, context);
  }
}
