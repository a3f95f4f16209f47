import { z } from "zod";

export const SECRET_PLACEHOLDER = "[[secret]]";

/** Marks a schema as secret in zod's metadata registry: its value is never logged or echoed. */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ ...(schema.meta() ?? {}), secret: true, writeOnly: true }) as T;
}

/** True when the schema, or a wrapper around it (optional, default, nullable …), is marked secret. */
export function isSecret(schema: z.ZodType | undefined): boolean {
  for (let current = schema; current; current = innerSchema(current)) {
    if (current.meta()?.secret === true) return true;
  }
  return false;
}

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

function innerSchema(schema: z.ZodType): z.ZodType | undefined {
  const def = (schema as z.ZodType & { _zod: { def: Record<string, unknown> } })._zod.def;
  if (WRAPPERS.has(def.type as string)) return def.innerType as z.ZodType;
  if (def.type === "pipe") return def.in as z.ZodType;
  if (def.type === "lazy") return (def.getter as () => z.ZodType)();
  return undefined;
}

function unwrapAll(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let next = innerSchema(current); next; next = innerSchema(current)) current = next;
  return current;
}

/** A copy of `value` in which every field the schema marks secret reads `[[secret]]`. */
export function redactSecrets(schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema) return value;
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
