import type { IncomingMessage, ServerResponse } from "node:http";
import type { ResponseCodec } from "../../core/response-codec";
import { shuttingDown } from "../../core/shutting-down";
import type { HttpAccessLog } from "./access-log";
import { holdHeaders } from "./held-headers";
import { lingerAfterAnswer } from "./refused-socket";
import { assignRequestId, newRequestId } from "./request-id";
import type { RequestOrigin } from "./request-origin";
import type { RequestTracker } from "./request-tracker";
import { sendError } from "./response-writer";
import { securityHeaders } from "./security-headers";

/** Starts a request: its id, or undefined when it was refused and answered. */
export type RequestStart = (req: IncomingMessage, res: ServerResponse) => string | undefined;

export interface RequestStarts {
  /** For the Express application (mounts, static files): the headers are set on the response at once, for whatever answers it; every request gets an access line. */
  setting: RequestStart;
  /** For the action path: the headers are held for the answer (see held-headers), which only Herald's writers write. */
  holding: RequestStart;
}

/**
 * What every request gets first, whether the action path or the Express application answers it: tracking for shutdown, its id, the security
 * headers; and, once the server is shutting down, its refusal (503, and the connection closes), with its access line.
 */
export function requestStart(tracker: RequestTracker, origin: RequestOrigin, codec: ResponseCodec, access: HttpAccessLog): RequestStarts {
  const security = securityHeaders(origin);
  const refuse = (req: IncomingMessage, res: ServerResponse, requestId: string, started: number) => {
    access.watch(req, res, requestId, started);
    lingerAfterAnswer(req.socket);
    void sendError(res, shuttingDown(), codec);
    return undefined;
  };
  return {
    setting(req, res) {
      const started = performance.now();
      const accepted = tracker.begin(res);
      const requestId = assignRequestId(req, res);
      security.apply(req, res);
      if (!accepted) return refuse(req, res, requestId, started);
      access.watch(req, res, requestId, started);
      return requestId;
    },
    holding(req, res) {
      const accepted = tracker.begin(res);
      const requestId = newRequestId(req);
      holdHeaders(res, { requestId, fixed: security.fixedFor(req), cacheControl: undefined });
      return accepted ? requestId : refuse(req, res, requestId, performance.now());
    },
  };
}
