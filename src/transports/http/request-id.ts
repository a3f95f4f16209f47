import type { IncomingMessage, ServerResponse } from "node:http";
import { uniqueId } from "../../core/unique-id";

export const REQUEST_ID_HEADER = "X-Request-Id";

/** What a caller may send as its own request id: short, and safe to echo and to log. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

/** Echoes a valid incoming X-Request-Id, or makes one, on the response; returns it. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && VALID_REQUEST_ID.test(incoming) ? incoming : uniqueId();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
