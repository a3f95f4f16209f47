import { z } from "zod";
import { MAX_PARAMS_DEPTH } from "./params-bounds";
import { wrappedSchema } from "./zod-internals";

export const SECRET_PLACEHOLDER = "[[secret]]";

/** Marks a schema as secret in zod's metadata registry: its value is never logged or echoed. */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ ...(schema.meta() ?? {}), secret: true, writeOnly: true }) as T;
}

/** True when the schema, or a wrapper around it (optional, default, nullable …), is marked secret. */
export function isSecret(schema: z.ZodType | undefined): boolean {
  return hasMetaFlag(schema, "secret");
}

/** True when the schema, or a wrapper around it, has `flag: true` in its metadata. */
export function hasMetaFlag(schema: z.ZodType | undefined, flag: string): boolean {
  for (let current = schema; current; current = innerSchema(current)) {
    if (current.meta()?.[flag] === true) return true;
  }
  return false;
}

const innerSchema = wrappedSchema;

function unwrapAll(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let next = innerSchema(current); next; next = innerSchema(current)) current = next;
  return current;
}

/**
 * `value` with every field the schema marks secret reading `[[secret]]`: a copy where a secret
 * field can be, `value` itself where the schema holds none.
 */
export function redactSecrets(schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema || !mayHoldSecret(schema)) return value;
  if (isSecret(schema)) return value === undefined ? undefined : SECRET_PLACEHOLDER;
  const base = unwrapAll(schema);
  if (base instanceof z.ZodObject && isPlainObject(value)) {
    const shape = base.shape as Record<string, z.ZodType>;
    const copy: Record<string, unknown> = {};
    for (const [key, fieldValue] of Object.entries(value)) {
      // Defined, not assigned: a "__proto__" key of hostile input stays a plain field.
      Object.defineProperty(copy, key, { value: redactSecrets(fieldOf(shape, key), fieldValue), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  }
  if (base instanceof z.ZodArray && Array.isArray(value)) {
    return value.map((item) => redactSecrets(base.element as z.ZodType, item));
  }
  return value;
}

/**
 * Whether `redactSecrets` can find a secret in the schema: the walk reads zod's metadata registry
 * at every field, so the request log asks once per schema instead of once per call.
 */
const secretHolders = new WeakMap<z.ZodType, boolean>();

/**
 * A schema that reaches back into itself (through a getter or z.lazy), or nests deeper than this,
 * counts as holding a secret: then the walk of `redactSecrets`, which follows the value and so
 * ends with it, decides.
 */
const DEEPEST_SCHEMA_WALK = 2 * MAX_PARAMS_DEPTH;

function mayHoldSecret(schema: z.ZodType): boolean {
  return secretHolders.get(schema) ?? walkForSecret(schema, new Set());
}

function walkForSecret(schema: z.ZodType, walking: Set<z.ZodType>): boolean {
  const known = secretHolders.get(schema);
  if (known !== undefined) return known;
  if (walking.has(schema) || walking.size >= DEEPEST_SCHEMA_WALK) return true;
  walking.add(schema);
  const holds = isSecret(schema) || someInnerHoldsSecret(unwrapAll(schema), walking);
  walking.delete(schema);
  // Exact when false: a conservative `true` from a cycle or the depth bound makes every schema above it true as well.
  secretHolders.set(schema, holds);
  return holds;
}

function someInnerHoldsSecret(base: z.ZodType, walking: Set<z.ZodType>): boolean {
  if (base instanceof z.ZodObject) {
    return Object.values(base.shape as Record<string, z.ZodType>).some((field) => walkForSecret(field, walking));
  }
  if (base instanceof z.ZodArray) return walkForSecret(base.element as z.ZodType, walking);
  return false;
}

/** True when the field at `path` inside `schema` is secret. */
export function isSecretPath(schema: z.ZodType | undefined, path: readonly PropertyKey[]): boolean {
  let current = schema;
  for (const segment of path) {
    if (!current) return false;
    if (isSecret(current)) return true;
    const base = unwrapAll(current);
    if (base instanceof z.ZodObject) current = fieldOf(base.shape as Record<string, z.ZodType>, String(segment));
    else if (base instanceof z.ZodArray) current = base.element as z.ZodType;
    else return false;
  }
  return isSecret(current);
}

/** The shape's own field: a key such as "__proto__" or "constructor" names no field, not the shape's prototype. */
function fieldOf(shape: Record<string, z.ZodType>, key: string): z.ZodType | undefined {
  return Object.hasOwn(shape, key) ? shape[key] : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
