import type {
  OperationObject,
  ParameterObject,
  ReferenceObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
} from "openapi3-ts/oas31";
import type { ActionDefinition } from "../core/action";
import { declaredErrors } from "../core/declared-errors";
import type { ActionMiddleware } from "../core/middleware";
import { isStreamingAction } from "../core/streaming";
import { takesFiles } from "../schema/takes-files";
import { httpBodyErrors, takesBody } from "../contract/http-body-errors";
import { outputJsonSchema, type JSONSchema } from "../contract/json-schema";
import type { RoutePath } from "../contract/route-path";
import { operationErrorResponses } from "./error-responses";
import { securityRequirement } from "./security";

type Schema = SchemaObject | ReferenceObject;

/** An action's input schema as placed in the document: inline, and as a component reference. */
export interface PlacedInputs {
  schema: SchemaObject;
  reference: ReferenceObject;
}

const BODY_MEDIA_TYPES = ["application/json", "application/x-www-form-urlencoded"];
/** Only actions whose inputs take files read a multipart body (see docs/http.md). */
const FILE_BODY_MEDIA_TYPES = [...BODY_MEDIA_TYPES, "multipart/form-data"];

/**
 * The operation of one action on one path: path params from the route, the other inputs as query
 * params (GET, DELETE, OPTIONS) or as a request body (POST, PUT, PATCH), the credentials it needs
 * (`security`, `[]` when public, from the middleware `chain` around it), the success response and
 * the error responses it declares.
 */
export function buildOperation(
  action: ActionDefinition,
  method: string,
  path: RoutePath,
  inputs: PlacedInputs | undefined,
  operationId: string,
  chain: readonly ActionMiddleware[],
  derivedResponse?: JSONSchema,
): OperationObject {
  const fields = objectFields(inputs?.schema);
  const pathNames = new Set(path.params.map((param) => param.name));
  const parameters: ParameterObject[] = path.params.map((param) => {
    const field = fields?.properties[param.name];
    const notes = [
      describedBy(field),
      param.wildcard ? "May span several path segments." : undefined,
    ].filter(Boolean);
    return {
      name: param.name,
      in: "path",
      required: true,
      schema: withRoutePattern(field, param.pattern),
      ...(notes.length ? { description: notes.join(" ") } : {}),
    };
  });

  const operation: OperationObject = {
    operationId,
    summary: summaryOf(action),
    ...(action.description ? { description: action.description } : {}),
    tags: [action.name.split(":")[0]!],
  };
  const bodyMethod = takesBody(method);
  if (inputs && bodyMethod) operation.requestBody = requestBody(inputs, fields, pathNames, action.inputs !== undefined && takesFiles(action.inputs));
  else if (inputs) parameters.push(...queryParameters(inputs, fields, pathNames));
  if (parameters.length) operation.parameters = parameters;
  const declared = declaredErrors(action, {
    middleware: chain,
    // ACTION_TIMEOUT may be 0 on the server that serves the document: only the action's own 0 is known here.
    timeoutApplies: action.timeout !== 0,
    transport: bodyMethod ? [httpBodyErrors(inputs !== undefined)] : [],
  });
  operation.responses = { "200": successResponse(action, derivedResponse), ...operationErrorResponses(declared) };
  operation.security = securityRequirement(chain);
  return operation;
}

/**
 * The line a reference page shows on an operation's row: the first line of the action's
 * description, or its name when it has none. The name stays the `operationId`.
 */
function summaryOf(action: ActionDefinition): string {
  const firstLine = action.description?.trim().split("\n", 1)[0]!.trim();
  return firstLine || action.name;
}

interface ObjectFields {
  properties: Record<string, Schema>;
  required: string[];
}

function objectFields(schema: SchemaObject | undefined): ObjectFields | undefined {
  if (!schema || schema.type !== "object" || !schema.properties) return undefined;
  return { properties: schema.properties, required: schema.required ?? [] };
}

function queryParameters(inputs: PlacedInputs, fields: ObjectFields | undefined, pathNames: Set<string>): ParameterObject[] {
  // A schema that is not a plain object (a union, say) is sent as one exploded object: key=value pairs.
  if (!fields) return [{ name: "params", in: "query", style: "form", explode: true, schema: inputs.reference }];
  return Object.entries(fields.properties)
    .filter(([name]) => !pathNames.has(name))
    .map(([name, schema]) => {
      const description = describedBy(schema);
      return {
        name,
        in: "query",
        required: fields.required.includes(name),
        schema,
        ...(description ? { description } : {}),
        ...(isArraySchema(schema) ? { style: "form", explode: true } : {}),
      } satisfies ParameterObject;
    });
}

function requestBody(inputs: PlacedInputs, fields: ObjectFields | undefined, pathNames: Set<string>, withFiles: boolean): RequestBodyObject {
  let schema: Schema = inputs.reference;
  let required = fields ? fields.required.length > 0 : true;
  const overlaps = fields && Object.keys(fields.properties).some((name) => pathNames.has(name));
  if (fields && overlaps) {
    // Fields carried by the path are left out of the body, where they would override the path.
    const properties = Object.fromEntries(Object.entries(fields.properties).filter(([name]) => !pathNames.has(name)));
    const remaining = fields.required.filter((name) => !pathNames.has(name));
    schema = { ...inputs.schema, properties, required: remaining };
    if (!remaining.length) delete schema.required;
    required = remaining.length > 0;
  }
  const types = withFiles ? FILE_BODY_MEDIA_TYPES : BODY_MEDIA_TYPES;
  return { required, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
}

/** `derived`: the schema `herald build` derived from `run`'s return type, for an action without `outputs`. */
function successResponse(action: ActionDefinition, derived: JSONSchema | undefined): ResponseObject {
  if (isStreamingAction(action)) {
    return {
      description: "A stream of Server-Sent Events, one per item the action yields.",
      content: { "text/event-stream": { schema: { type: "string" } } },
    };
  }
  return {
    description: "The value the action returns, as JSON.",
    content: { "application/json": { schema: (action.outputs ? outputJsonSchema(action.outputs) : (derived ?? {})) as Schema } },
  };
}

/** The field's own schema when it has one; a RegExp route's group pattern applies on top of it. */
function withRoutePattern(field: Schema | undefined, pattern: string | undefined): Schema {
  if (!field) return { type: "string", ...(pattern ? { pattern } : {}) };
  if (!pattern || "$ref" in field || field.type !== "string" || field.pattern) return field;
  return { ...field, pattern };
}

function describedBy(schema: Schema | undefined): string | undefined {
  return schema && "description" in schema ? schema.description : undefined;
}

function isArraySchema(schema: Schema): boolean {
  return "type" in schema && (schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array")));
}
