import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { errorBody, toTypedError } from "../../core/error-body";
import type { Logger } from "../../core/logger";

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === "object" && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

export interface EventStreamOptions {
  signal: AbortSignal;
  production: boolean;
  logger: Logger;
}

async function write(res: ServerResponse, text: string, signal: AbortSignal): Promise<void> {
  if (res.write(text)) return;
  await once(res, "drain", { signal }).catch(() => undefined);
}

function waitForAbort(signal: AbortSignal): Promise<"aborted"> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve("aborted");
    signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
}

/**
 * Sends each value the action yields as one Server-Sent Event (`data: <json>`), then an `end`
 * event; a failure mid-stream becomes an `error` event carrying the error body. When the client
 * leaves or the server stops, the iterator is closed and nothing more is read from it.
 */
export async function sendEventStream(res: ServerResponse, source: AsyncIterable<unknown>, options: EventStreamOptions): Promise<void> {
  const { signal } = options;
  res.statusCode = 200;
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("X-Accel-Buffering", "no");
  res.flushHeaders();
  const iterator = source[Symbol.asyncIterator]();
  const aborted = waitForAbort(signal);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next === "aborted") {
        iterator.return?.()?.catch(() => undefined);
        break;
      }
      if (next.done) {
        await write(res, "event: end\ndata: {}\n\n", signal);
        break;
      }
      await write(res, `data: ${JSON.stringify(next.value ?? null)}\n\n`, signal);
    }
  } catch (thrown) {
    const error = toTypedError(thrown, options.production);
    options.logger.warn({ err: error.cause ?? error, type: error.type }, "event stream failed");
    if (!signal.aborted) await write(res, `event: error\ndata: ${JSON.stringify(errorBody(error, options.production))}\n\n`, signal);
  }
  res.end();
}
