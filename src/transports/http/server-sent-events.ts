import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { isClientGone } from "../../core/client-gone";
import type { DispatchedStream } from "../../core/dispatched-stream";

export interface EventStreamOptions {
  signal: AbortSignal;
}

async function write(res: ServerResponse, text: string, signal: AbortSignal): Promise<void> {
  if (res.write(text)) return;
  await once(res, "drain", { signal }).catch(() => undefined);
}

/**
 * Sends each value the action yields as one Server-Sent Event (`data: <json>`), then an `end`
 * event; a stream that ends otherwise (a failure, a value JSON cannot carry, its deadline, a
 * shutdown) sends an `error` event carrying the error body. The dispatcher's stream ends the call
 * and logs it; a client who left is sent nothing more.
 */
export async function sendEventStream(res: ServerResponse, stream: DispatchedStream, options: EventStreamOptions): Promise<void> {
  const { signal } = options;
  res.statusCode = 200;
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("X-Accel-Buffering", "no");
  res.flushHeaders();
  try {
    for await (const text of stream) await write(res, `data: ${text}\n\n`, signal);
    await write(res, "event: end\ndata: {}\n\n", signal);
  } catch (thrown) {
    if (!isClientGone(thrown) && !res.destroyed) {
      await write(res, `event: error\ndata: ${JSON.stringify(stream.errorBody(thrown))}\n\n`, signal);
    }
  }
  res.end();
}
