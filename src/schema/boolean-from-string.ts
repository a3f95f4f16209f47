import { z } from "zod";

/** A boolean, or the form-data strings "true" / "false"; the output is always a boolean. */
export function zBooleanFromString() {
  return z.union([z.boolean(), z.enum(["true", "false"]).transform((text) => text === "true")]);
}
