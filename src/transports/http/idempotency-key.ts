import type { IncomingMessage } from "node:http";

/** Set on an answer given again to a retry with its idempotency key, as Stripe's API does: nothing ran for it. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

/**
 * The request's `Idempotency-Key`. The IETF draft (draft-ietf-httpapi-idempotency-key-header)
 * makes it a structured-field string, `"…"`; the bare token most clients send is read the same.
 */
export function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  const header = req.headers["idempotency-key"];
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(", ") : header;
  const quoted = /^"(.*)"$/.exec(value);
  return quoted ? quoted[1] : value;
}
