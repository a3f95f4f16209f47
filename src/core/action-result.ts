import type { DispatchedStream } from "./dispatched-stream";
import type { ErrorBody } from "./error-body";
import type { TypedError } from "./errors";

/**
 * What a transport sends, made by the dispatcher: the response as JSON text, the error body as
 * this environment shows it, a stream whose items are JSON text, or the value itself when the
 * transport said it frames that kind of value on its own wire (`DispatchOptions.frames`).
 */
export type Answer =
  | { kind: "json"; text: string }
  | { kind: "error"; error: TypedError; body: ErrorBody }
  | { kind: "stream"; stream: DispatchedStream }
  | { kind: "framed"; value: unknown };

export interface ActionResult {
  actionName: string;
  /** The response as run and runAfter left it; a streaming call's is the `DispatchedStream` (see `answer`). */
  response?: unknown;
  error?: TypedError;
  /** The HTTP-equivalent status the caller gets: 200, or the error's status from ErrorStatusCodes. */
  status: number;
  /** For a streaming call, until its stream was handed over; its request log line covers the whole stream. */
  durationMs: number;
  /** What the caller gets, encoded once; the request log line states its status. */
  answer: Answer;
  /** The answer of an earlier call with the same idempotency key, given again: nothing ran. */
  replayed?: true;
}
