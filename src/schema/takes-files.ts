import type { z } from "zod";

/** Types whose input may be anything, an uploaded file included. */
const OPEN_TYPES = new Set(["file", "any", "unknown", "custom", "lazy"]);

/** Beyond this many schemas the walk gives up and answers "may take files". */
const MOST_SCHEMAS_WALKED = 10_000;

function isSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/** Every schema a def holds directly, whatever member it sits in (shape, items, options, inner types). */
function innerSchemas(def: Record<string, unknown>): z.ZodType[] {
  const inner: z.ZodType[] = [];
  for (const [member, value] of Object.entries(def)) {
    if (member === "checks") continue;
    if (isSchema(value)) inner.push(value);
    else if (Array.isArray(value)) inner.push(...value.filter(isSchema));
    else if (member === "shape" && value) inner.push(...Object.values(value as Record<string, unknown>).filter(isSchema));
  }
  return inner;
}

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
    const def = (pending.pop() as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
    if (OPEN_TYPES.has(def.type)) return true;
    for (const inner of innerSchemas(def)) {
      if (seen.has(inner)) continue;
      seen.add(inner);
      pending.push(inner);
    }
  }
  return false;
}
