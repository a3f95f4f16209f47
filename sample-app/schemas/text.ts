import { z } from "zod";

/**
 * Text the database will store: PostgreSQL's text types cannot hold U+0000, and would refuse it
 * with an error only after validation had passed. A zod check rather than a refine, so the
 * schema still parses synchronously.
 */
export function storableText() {
  return z.string().regex(/^[^\u0000]*$/, "Must not contain the NUL character (U+0000)");
}
