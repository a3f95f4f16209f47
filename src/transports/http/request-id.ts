import type { IncomingMessage, ServerResponse } from "node:http";
import { REQUEST_ID_HEADER, requestIdFrom } from "../../core/request-id";

export { REQUEST_ID_HEADER };

/** The request's id: a valid incoming X-Request-Id, or a new one. */
export function newRequestId(req: IncomingMessage): string {
  return requestIdFrom(req.headers["x-request-id"]);
}

/** The request's id (see `newRequestId`), set on the response as X-Request-Id; returns it. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = newRequestId(req);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
