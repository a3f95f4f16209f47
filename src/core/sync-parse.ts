import { z } from "zod";
import { checkDefOf, defOf } from "./zod-internals";

/** Types that call no function of the app's while parsing. */
const PLAIN_TYPES = new Set([
  "string", "number", "int", "boolean", "bigint", "symbol", "null", "undefined", "void", "never", "any",
  "unknown", "date", "enum", "literal", "nan", "template_literal", "file",
]);

/** Types that only hold other schemas, and the def members that hold them. */
const CONTAINER_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  object: ["catchall"],
  array: ["element"],
  tuple: ["rest"],
  record: ["keyType", "valueType"],
  map: ["keyType", "valueType"],
  set: ["valueType"],
  union: [],
  intersection: ["left", "right"],
  optional: ["innerType"],
  nullable: ["innerType"],
  nonoptional: ["innerType"],
  readonly: ["innerType"],
  default: ["innerType"],
  prefault: ["innerType"],
  catch: ["innerType"],
  success: ["innerType"],
  pipe: ["in", "out"],
};

/** zod's own checks (min, max, formats …); a refine is a "custom" check and may return a promise. */
const PLAIN_CHECKS = new Set([
  "less_than", "greater_than", "multiple_of", "number_format", "bigint_format", "max_size", "min_size",
  "size_equals", "max_length", "min_length", "length_equals", "string_format", "mime_type", "overwrite",
  "property", "properties",
]);

/** Beyond this many schemas the walk gives up and answers "may be async". */
const MOST_SCHEMAS_WALKED = 10_000;

const verdicts = new WeakMap<z.ZodType, boolean>();

/**
 * True when no step of the schema can return a promise: no transform, refine, custom type, lazy
 * or promise anywhere in it. Then zod's sync `safeParse` gives the same result as
 * `safeParseAsync`, for less. Decided from the schema alone, once: trying a sync parse first
 * would run a refine or transform of the app twice, and leave the first promise's rejection
 * unhandled.
 */
export function parsesSynchronously(schema: z.ZodType): boolean {
  let verdict = verdicts.get(schema);
  if (verdict === undefined) {
    verdict = walk(schema);
    verdicts.set(schema, verdict);
  }
  return verdict;
}

/** Marks a schema that a sync parse found async after all, so it is parsed async from now on. */
export function markAsync(schema: z.ZodType): void {
  verdicts.set(schema, false);
}

/**
 * zod's parse result of `value`: by the sync `safeParse` when `parsesSynchronously` says it may,
 * a promise of it otherwise. A schema a sync parse finds async after all (a step the walk missed)
 * is parsed async, now and from then on.
 */
export function safeParseEither(schema: z.ZodType, value: unknown): z.ZodSafeParseResult<unknown> | Promise<z.ZodSafeParseResult<unknown>> {
  if (parsesSynchronously(schema)) {
    try {
      return schema.safeParse(value);
    } catch (thrown) {
      if (!(thrown instanceof z.core.$ZodAsyncError)) throw thrown;
      markAsync(schema);
    }
  }
  return schema.safeParseAsync(value);
}

function walk(root: z.ZodType): boolean {
  const seen = new Set<z.ZodType>([root]);
  const pending: z.ZodType[] = [root];
  const visit = (schema: unknown) => {
    if (schema && !seen.has(schema as z.ZodType)) {
      seen.add(schema as z.ZodType);
      pending.push(schema as z.ZodType);
    }
  };
  while (pending.length) {
    if (seen.size > MOST_SCHEMAS_WALKED) return false;
    const def = defOf(pending.pop()!);
    const members = CONTAINER_MEMBERS[def.type];
    if (!PLAIN_TYPES.has(def.type) && !members) return false;
    // A codec is a pipe with a transform of its own.
    if (def.type === "pipe" && def.transform) return false;
    for (const member of members ?? []) visit(def[member]);
    // Object shapes may be getters (zod's way to recurse); reading them is how zod reads them too.
    if (def.type === "object") for (const field of Object.values(def.shape as Record<string, z.ZodType>)) visit(field);
    if (def.type === "tuple") (def.items as z.ZodType[]).forEach(visit);
    if (def.type === "union") (def.options as z.ZodType[]).forEach(visit);
    for (const check of def.checks ?? []) {
      const checkDef = checkDefOf(check);
      if (!PLAIN_CHECKS.has(checkDef.check)) return false;
      visit(checkDef.schema);
      if (checkDef.shape) Object.values(checkDef.shape).forEach(visit);
    }
  }
  return true;
}
