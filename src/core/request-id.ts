import { uniqueId } from "./unique-id";

/** The header a request's id comes in and goes out with, on every transport that speaks HTTP. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/** What a caller may send as its own request id: short, and safe to echo and to log. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

/** A request's id: the caller's `X-Request-Id` when it is a valid one, or a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === "string" && VALID_REQUEST_ID.test(header) ? header : uniqueId();
}
