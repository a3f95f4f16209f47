import type { IncomingMessage, ServerResponse } from "node:http";
import { uniqueId } from "../../core/unique-id";

export const REQUEST_ID_HEADER = "X-Request-Id";

/** What a caller may send as its own request id: short, and safe to echo and to log. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

/** The request's id: a valid incoming X-Request-Id, or a new one. */
export function newRequestId(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && VALID_REQUEST_ID.test(incoming) ? incoming : uniqueId();
}

/** The request's id (see `newRequestId`), set on the response as X-Request-Id; returns it. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = newRequestId(req);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
