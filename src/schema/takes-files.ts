import type { z } from "zod";
import { childSchemas, defOf } from "../core/zod-internals";

/** Types whose input may be anything, an uploaded file included. */
const OPEN_TYPES = new Set(["file", "any", "unknown", "custom", "lazy"]);

/** Beyond this many schemas the walk gives up and answers "may take files". */
const MOST_SCHEMAS_WALKED = 10_000;

/**
 * Whether an action's inputs may take an uploaded file: a `z.file()` anywhere in them, or a type
 * open enough to accept one (`z.any()`, `z.unknown()`, `z.custom()`, `z.lazy()`). Only such
 * actions read, and document, multipart bodies; the HTTP transport decides it once per action, at boot.
 */
export function takesFiles(schema: z.ZodType): boolean {
  const seen = new Set<z.ZodType>([schema]);
  const pending = [schema];
  while (pending.length) {
    if (seen.size > MOST_SCHEMAS_WALKED) return true;
    const def = defOf(pending.pop()!);
    if (OPEN_TYPES.has(def.type)) return true;
    for (const inner of childSchemas(def)) {
      if (seen.has(inner)) continue;
      seen.add(inner);
      pending.push(inner);
    }
  }
  return false;
}
