import { z } from "zod";
import { ErrorType, TypedError } from "../core/errors";
import { defOf } from "../core/zod-internals";
import { isInternal } from "../schema/internal";
import { actionsOf, ActionSource } from "./action-source";

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), as zod's own converter writes it. */
export type JSONSchema = z.core.JSONSchema.JSONSchema;

type ConversionContext = Parameters<NonNullable<z.core.ToJSONSchemaParams["override"]>>[0];

/** Which way a schema's values travel: sent by a client (inputs), or received by it (outputs, error values). */
type Side = "sent" | "received";

/**
 * Schemas already converted (or read from the cache), by side and by the schema they describe:
 * the OpenAPI document, the MCP catalog and the client types describe the same schemas, and
 * converting is a large part of a boot. Callers copy before they change a schema.
 */
const converted: Record<Side, WeakMap<z.ZodType, JSONSchema>> = { sent: new WeakMap(), received: new WeakMap() };

/** One conversion by zod's own converter; both sides read the schema's input side, since JSON carries what is parsed. */
function convert(schema: z.ZodType, side: Side): JSONSchema {
  let json = converted[side].get(schema);
  if (!json) {
    const { $schema: _dialect, ...written } = z.toJSONSchema(schema, {
      io: "input",
      unrepresentable: "any",
      override: side === "sent" ? describeForClients : describeReceived,
    });
    json = written;
    converted[side].set(schema, json);
  }
  return json;
}

/**
 * The JSON Schema of what a client may send for `inputs`: the input side of transforms, coercions
 * and defaults, since that is what arrives on the wire.
 */
export function inputJsonSchema(inputs: z.ZodType): JSONSchema {
  return convert(inputs, "sent");
}

/** Schemas read from the OpenAPI cache, keyed by action name, for `inputJsonSchema` to return as they are. */
export function rememberInputJsonSchemas(source: ActionSource, schemas: Record<string, JSONSchema>): void {
  for (const action of actionsOf(source)) {
    const schema = schemas[action.name];
    if (action.inputs && schema && !converted.sent.has(action.inputs)) converted.sent.set(action.inputs, schema);
  }
}

/**
 * The JSON Schema of what a client receives for `outputs`: the JSON of what `run` returns, so the
 * input side of the schema, with a date as its ISO text, as Herald's encoder writes it. Internal
 * fields are left out, and a secret's examples and defaults too.
 */
export function outputJsonSchema(outputs: z.ZodType): JSONSchema {
  return convert(outputs, "received");
}

function describeReceived(context: ConversionContext): void {
  const { zodSchema, jsonSchema } = context;
  if (defOf(zodSchema).type === "date") Object.assign(jsonSchema, { type: "string", format: "date-time" });
  leaveOutInternalFields(zodSchema, jsonSchema);
  if (jsonSchema.secret === true) {
    // The action does send it: writeOnly would tell clients a response never holds it.
    delete jsonSchema.secret;
    delete jsonSchema.writeOnly;
    forgetDocumentedValues(jsonSchema);
  }
}

/** A documented value of a secret is a secret published: examples and defaults stay out. */
function forgetDocumentedValues(jsonSchema: JSONSchema): void {
  for (const revealing of ["examples", "example", "default", "const"]) delete (jsonSchema as Record<string, unknown>)[revealing];
}

/**
 * JSON Schemas of every action's `inputs`, keyed by action name; actions without `inputs` have
 * no entry. Throws a SERVER_INITIALIZATION TypedError naming the action whose schema zod cannot
 * convert (for example two schemas sharing one `id`).
 */
export function generateOpenApiSchemas(source: ActionSource): Record<string, JSONSchema> {
  const schemas: Record<string, JSONSchema> = {};
  for (const action of actionsOf(source)) {
    if (!action.inputs) continue;
    try {
      schemas[action.name] = inputJsonSchema(action.inputs);
    } catch (cause) {
      throw new TypedError({
        message: `Cannot describe the inputs of action "${action.name}" as JSON Schema: ${(cause as Error).message}`,
        type: ErrorType.SERVER_INITIALIZATION,
        cause,
      });
    }
  }
  return schemas;
}

function describeForClients({ zodSchema, jsonSchema }: ConversionContext): void {
  leaveOutInternalFields(zodSchema, jsonSchema);
  if (jsonSchema.secret === true) {
    delete jsonSchema.secret;
    jsonSchema.writeOnly = true;
    if (jsonSchema.type === "string" || jsonSchema.type === undefined) jsonSchema.format = "password";
    forgetDocumentedValues(jsonSchema);
  }
  // A default computed by a function (a date, a random id) would document one arbitrary value.
  if ("default" in jsonSchema && hasComputedDefault(zodSchema)) delete jsonSchema.default;
}

/** An object's fields marked `internal()` are no client's business: not listed, not required. */
function leaveOutInternalFields(zodSchema: z.core.$ZodType, jsonSchema: JSONSchema): void {
  delete jsonSchema.internal;
  const def = defOf(zodSchema);
  const shape = def.shape as Record<string, z.ZodType> | undefined;
  if (def.type !== "object" || !shape) return;
  const hidden = Object.keys(shape).filter((key) => isInternal(shape[key]));
  if (!hidden.length) return;
  for (const key of hidden) delete jsonSchema.properties?.[key];
  if (jsonSchema.required) jsonSchema.required = jsonSchema.required.filter((key) => !hidden.includes(key));
}

/**
 * Zod re-evaluates a function default on every read, so two reads that differ reveal one. A
 * default that JSON cannot hold (a bigint) is dropped as well: the document could not carry it.
 */
export function hasComputedDefault(schema: z.core.$ZodType): boolean {
  const def = defOf(schema);
  if (def.type !== "default" && def.type !== "prefault") return false;
  try {
    return JSON.stringify(def.defaultValue) !== JSON.stringify(def.defaultValue);
  } catch {
    return true;
  }
}
