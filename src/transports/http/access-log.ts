import type { IncomingMessage, ServerResponse } from "node:http";
import { isAccessLogged, isActionCall, pathOfUrl, writeAccessLine } from "../../core/access-log";
import type { Logger } from "../../core/logger";

/**
 * The access lines of one listener: one per request that is not an action call (a 404, a 405, a
 * preflight, a refusal, a static file, a mount's answer), written when its response closes. An
 * action call's line is the dispatcher's request log, so a response marked as one gets none.
 */
export class HttpAccessLog {
  constructor(private readonly logger: Logger) {}

  /** Watches a request's response; `started` is when the request came in. */
  watch(req: IncomingMessage, res: ServerResponse, requestId: string | undefined, started: number): void {
    // Taken now: a mount sees, and may leave, its own path in req.url.
    const path = pathOfUrl(req.url);
    if (!isAccessLogged(this.logger, path)) return;
    res.once("close", () => {
      if (isActionCall(res)) return;
      writeAccessLine(this.logger, {
        method: req.method,
        path,
        status: res.statusCode,
        durationMs: performance.now() - started,
        requestId,
        ...(res.writableFinished ? {} : { aborted: true as const }),
      });
    });
  }
}
