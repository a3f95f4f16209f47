import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { errorBody, toTypedError } from "../../core/error-body";
import type { Logger } from "../../core/logger";
import { encodeResponse } from "../../core/response-encoder";
import { forEachChunk } from "../../core/streaming";

export interface EventStreamOptions {
  actionName: string;
  signal: AbortSignal;
  production: boolean;
  logger: Logger;
}

async function write(res: ServerResponse, text: string, signal: AbortSignal): Promise<void> {
  if (res.write(text)) return;
  await once(res, "drain", { signal }).catch(() => undefined);
}

/**
 * Sends each value the action yields as one Server-Sent Event (`data: <json>`), then an `end`
 * event; a failure mid-stream (a value JSON cannot carry included) becomes an `error` event
 * carrying the error body. When the client leaves or the server stops, the iterator is closed and
 * nothing more is read from it.
 */
export async function sendEventStream(res: ServerResponse, source: AsyncIterable<unknown>, options: EventStreamOptions): Promise<void> {
  const { signal } = options;
  res.statusCode = 200;
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("X-Accel-Buffering", "no");
  res.flushHeaders();
  try {
    const ended = await forEachChunk(source, signal, (value) => write(res, `data: ${encodeResponse(options.actionName, value)}\n\n`, signal));
    if (ended) await write(res, "event: end\ndata: {}\n\n", signal);
  } catch (thrown) {
    const error = toTypedError(thrown, options.production);
    options.logger.warn({ err: error.cause ?? error, type: error.type }, "event stream failed");
    if (!signal.aborted) await write(res, `event: error\ndata: ${JSON.stringify(errorBody(error, options.production))}\n\n`, signal);
  }
  res.end();
}
