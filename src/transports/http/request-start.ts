import type { IncomingMessage, ServerResponse } from "node:http";
import { shuttingDown } from "../../core/shutting-down";
import { lingerAfterAnswer } from "./refused-socket";
import { assignRequestId } from "./request-id";
import type { RequestOrigin } from "./request-origin";
import type { RequestTracker } from "./request-tracker";
import { sendError } from "./response-writer";
import { securityHeaders } from "./security-headers";

/** Starts a request: its id, or undefined when it was refused and answered. */
export type RequestStart = (req: IncomingMessage, res: ServerResponse) => string | undefined;

/**
 * What every request gets first, on either HTTP path: tracking for shutdown, its id, the security
 * headers; and, once the server is shutting down, its refusal (503, and the connection closes).
 */
export function requestStart(tracker: RequestTracker, origin: RequestOrigin, production: boolean): RequestStart {
  const setSecurityHeaders = securityHeaders(origin);
  return (req, res) => {
    const accepted = tracker.begin(res);
    const requestId = assignRequestId(req, res);
    setSecurityHeaders(req, res);
    if (accepted) return requestId;
    lingerAfterAnswer(req.socket);
    void sendError(res, shuttingDown(), production);
    return undefined;
  };
}
