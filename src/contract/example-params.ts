import type { ActionDefinition } from "../core/action";
import { inputJsonSchema, type JSONSchema } from "./json-schema";

/** At most this many fields in one example: it shows how a call looks, not every input. */
const MAX_FIELDS = 4;

const BY_FORMAT: Readonly<Record<string, string>> = {
  email: "ada@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  uuid: "00000000-0000-4000-8000-000000000000",
  "date-time": "2025-01-01T12:00:00Z",
  date: "2025-01-01",
  time: "12:00:00",
};

/** A schema that says something: JSON Schema also allows `true` (anything) and `false` (nothing) in a schema's place. */
function objectOf(schema: JSONSchema | boolean | undefined): JSONSchema | undefined {
  return schema !== undefined && typeof schema === "object" ? schema : undefined;
}

function typeOf(schema: JSONSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== "null") : schema.type;
}

function exampleString(schema: JSONSchema): string {
  const byFormat = schema.format ? BY_FORMAT[schema.format] : undefined;
  if (byFormat) return byFormat;
  const text = "example".repeat(Math.max(1, Math.ceil((schema.minLength ?? 0) / "example".length)));
  return schema.maxLength === undefined ? text : text.slice(0, schema.maxLength);
}

function exampleNumber(schema: JSONSchema, integer: boolean): number {
  const above = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : undefined;
  const value = schema.minimum ?? above ?? 1;
  const capped = typeof schema.maximum === "number" ? Math.min(value, schema.maximum) : value;
  return integer ? Math.ceil(capped) : capped;
}

/**
 * A value the schema would accept, to show in an example call: what the schema itself offers
 * (examples, default, const, enum) before one made from its type and format; undefined where
 * nothing sensible can be made (an object, a reference).
 */
function exampleValue(schema: JSONSchema | boolean | undefined): unknown {
  const object = objectOf(schema);
  if (!object) return undefined;
  if (Array.isArray(object.examples) && object.examples.length > 0) return object.examples[0];
  if (object.default !== undefined) return object.default;
  if (object.const !== undefined) return object.const;
  if (Array.isArray(object.enum) && object.enum.length > 0) return object.enum[0];
  const branches = object.anyOf ?? object.oneOf;
  if (branches) return branches.map(exampleValue).find((value) => value !== undefined && value !== null);
  switch (typeOf(object)) {
    case "string":
      return exampleString(object);
    case "integer":
      return exampleNumber(object, true);
    case "number":
      return exampleNumber(object, false);
    case "boolean":
      return true;
    case "array": {
      const item = Array.isArray(object.items) ? undefined : exampleValue(object.items);
      return item === undefined ? undefined : [item];
    }
    default:
      return undefined;
  }
}

/**
 * Params for an example call of `action`, from its inputs' JSON Schema: each required field, or
 * when none is required the first field that has a value to show; a secret (`writeOnly`) field
 * only when it is required. An action without inputs, or whose inputs are not an object, takes `{}`.
 */
export function exampleParams(action: ActionDefinition): Record<string, unknown> {
  if (!action.inputs) return {};
  const schema = objectOf(inputJsonSchema(action.inputs));
  const properties = schema?.properties;
  if (!properties) return {};
  const required = new Set(schema.required ?? []);
  const candidates = Object.entries(properties)
    .map(([name, field]) => ({ name, required: required.has(name), secret: objectOf(field)?.writeOnly === true, value: exampleValue(field) }))
    .filter((field) => field.value !== undefined && (field.required || !field.secret));
  const chosen = required.size > 0 ? candidates.filter((field) => field.required) : candidates.slice(0, 1);
  return Object.fromEntries(chosen.slice(0, MAX_FIELDS).map((field) => [field.name, field.value]));
}
