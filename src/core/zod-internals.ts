import type { z } from "zod";

/**
 * What Herald reads of zod's internals, in one place: zod 4 keeps a schema's definition (its
 * type, inner schemas, checks) in `_zod.def`, which its public API does not expose. When zod
 * changes it, this file is what changes.
 */

/** A schema's (or a check's) definition: its `type` (a check's `check`) and the members that type has. */
export interface ZodDef {
  type: string;
  checks?: readonly z.core.$ZodCheck[];
  [member: string]: unknown;
}

/** A check's definition: its kind (`min_length`, `custom` …) and, for some, the schemas it holds. */
export interface ZodCheckDef {
  check: string;
  schema?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  [member: string]: unknown;
}

/** Types that wrap one schema in `innerType` and change only what absence or failure means. */
export const WRAPPER_TYPES: ReadonlySet<string> = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

/** Whether a value is a zod schema or check: an object with a definition. */
export function isZodNode(value: unknown): value is z.core.$ZodType | z.core.$ZodCheck {
  const internals = (value as { _zod?: { def?: unknown } } | null | undefined)?._zod;
  return typeof internals?.def === "object" && internals.def !== null;
}

export function defOf(schema: z.core.$ZodType): ZodDef {
  return (schema._zod as unknown as { def: ZodDef }).def;
}

export function checkDefOf(check: z.core.$ZodCheck): ZodCheckDef {
  return (check._zod as unknown as { def: ZodCheckDef }).def;
}

/**
 * The schema that a wrapper (optional, default …), a pipe (its input) or a lazy (its target)
 * stands for; undefined for any other type.
 */
export function wrappedSchema(schema: z.core.$ZodType): z.ZodType | undefined {
  const def = defOf(schema);
  if (WRAPPER_TYPES.has(def.type)) return def.innerType as z.ZodType;
  if (def.type === "pipe") return def.in as z.ZodType;
  if (def.type === "lazy") return (def.getter as () => z.ZodType)();
  return undefined;
}

/** Every schema a definition holds directly, whatever member it sits in (shape, items, options, inner types); checks aside. */
export function childSchemas(def: ZodDef): z.ZodType[] {
  const children: z.ZodType[] = [];
  for (const [member, value] of Object.entries(def)) {
    if (member === "checks") continue;
    const held = isZodNode(value) ? [value] : Array.isArray(value) ? value : member === "shape" && value ? Object.values(value) : [];
    for (const candidate of held) if (isZodNode(candidate)) children.push(candidate as z.ZodType);
  }
  return children;
}

/** A schema's or a check's definition, as a plain record of its members. */
export function nodeDefOf(node: z.core.$ZodType | z.core.$ZodCheck): Readonly<Record<string, unknown>> {
  return (node._zod as unknown as { def: Record<string, unknown> }).def;
}

/** Makes zod's JSON Schema conversion answer `convert`'s schema for this one schema, whatever it holds. */
export function overrideJsonSchema(schema: z.core.$ZodType, convert: NonNullable<z.core.$ZodTypeInternals["toJSONSchema"]>): void {
  schema._zod.toJSONSchema = convert;
}

/**
 * A schema's output type by indexed access rather than `z.output`'s conditional type, so that it
 * still resolves when the schema is `this["inputs"]` of a class being checked against an interface.
 */
export type SchemaOutput<S extends { _zod: { output: unknown } }> = S["_zod"]["output"];
/** What a schema takes in, read as `SchemaOutput` is. */
export type SchemaInput<S extends { _zod: { input: unknown } }> = S["_zod"]["input"];
