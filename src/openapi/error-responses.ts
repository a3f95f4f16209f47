import { STATUS_CODES } from "node:http";
import { z } from "zod";
import type { ReferenceObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import type { DeclaredError } from "../core/declared-errors";
import { ErrorStatusCodes, ErrorType } from "../core/errors";
import { errorBodySchema } from "../contract/error-body-schema";
import { outputJsonSchema } from "../contract/json-schema";

export const ERROR_BODY_COMPONENT = "ErrorBody";

/** Why the server answers with each status, where the reason is the server's own. */
const REASONS: Record<number, string> = {
  400: "The request body could not be parsed as JSON or form data.",
  401: "The request is not authenticated.",
  403: "The request is authenticated but not allowed.",
  404: "No action is routed at this path.",
  405: "An action is routed at this path, but not for this method; the Allow header lists the methods that are.",
  409: "The request conflicts with the current state.",
  413: "The request body is larger than the server's limit.",
  415: "The request body is of a type the action does not read (its Content-Type, or none): it reads JSON, urlencoded forms, and multipart forms when its inputs take files.",
  422: "The params failed validation against the action's inputs; `issues` lists every problem.",
  429: "Too many requests.",
  500: "The action failed unexpectedly.",
  503: "A service the server depends on is unavailable.",
  504: "The action did not finish within its timeout: its signal was aborted, and what it had done by then may stand.",
};

export function errorBodyJsonSchema(): SchemaObject {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(errorBodySchema);
  return schema as SchemaObject;
}

/** Recorded in the request log, never sent: the caller it would answer has left. */
const NEVER_SENT: ReadonlySet<ErrorType> = new Set([ErrorType.CONNECTION_CLIENT_GONE]);

/**
 * Sent only by the actions that declare it, never by the dispatcher on its own: an action that
 * asks its caller for input (connection.ask), over a transport that cannot ask.
 */
const DECLARED_ONLY: ReadonlySet<ErrorType> = new Set([ErrorType.CONNECTION_INPUT_REQUIRED]);

/** Every status an ErrorType any call can receive maps to, each with the error types that produce it. */
export function errorTypesByStatus(): Map<number, ErrorType[]> {
  const byStatus = new Map<number, ErrorType[]>();
  for (const [type, status] of Object.entries(ErrorStatusCodes) as [ErrorType, number][]) {
    if (NEVER_SENT.has(type) || DECLARED_ONLY.has(type)) continue;
    byStatus.set(status, [...(byStatus.get(status) ?? []), type]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** `422` → `UnprocessableEntity`, the name of the status's shared response component. */
export function errorResponseName(status: number): string {
  const phrase = STATUS_CODES[status] ?? `Status ${status}`;
  return phrase.replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) => (next ?? "").toUpperCase());
}

/** One shared response per error status: the error body, its `type` narrowed to that status's types. */
export function errorResponseComponents(): Record<string, ResponseObject> {
  const components: Record<string, ResponseObject> = {};
  for (const [status, types] of errorTypesByStatus()) {
    const reason = REASONS[status] ?? STATUS_CODES[status] ?? "An error.";
    const response: ResponseObject = {
      description: `${reason} Error types: ${types.join(", ")}.`,
      content: {
        "application/json": {
          schema: {
            allOf: [
              errorBodyReference(),
              { type: "object", properties: { error: { type: "object", properties: { type: { enum: types } } } } },
            ],
          },
        },
      },
    };
    if (status === 405) {
      response.headers = { Allow: { description: "The methods this path accepts.", schema: { type: "string" } } };
    }
    components[errorResponseName(status)] = response;
  }
  return components;
}

/** Why an operation answers with a status: a 404 there is a record the call names, not a path. */
const OPERATION_REASONS: Record<number, string> = {
  ...REASONS,
  400: "The request body could not be parsed as JSON or form data, or the params nest too deep.",
  404: "Something the call names does not exist.",
  413: "The request body, or the params, are larger than the server's limits.",
  429: "Too many calls: this caller's calls in flight, or a rate limit.",
};

/**
 * The error responses of one operation: exactly its declared errors (core/declared-errors.ts),
 * one response per status. Its body is ErrorBody with `type` narrowed to the declared types of
 * that status and `value` to their declared schemas; where that narrows nothing beyond the shared
 * response of the status, the operation refers to it.
 */
export function operationErrorResponses(declared: ReadonlyMap<ErrorType, DeclaredError>): Record<string, ResponseObject | ReferenceObject> {
  const byStatus = new Map<number, DeclaredError[]>();
  for (const error of declared.values()) {
    if (NEVER_SENT.has(error.type)) continue;
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  }
  const shared = errorTypesByStatus();
  const responses: Record<string, ResponseObject | ReferenceObject> = {};
  for (const [status, errors] of [...byStatus].sort(([a], [b]) => a - b)) {
    const types = errors.map((error) => error.type).sort();
    const everyType = shared.get(status) ?? [];
    const narrowsNothing =
      errors.every((error) => !error.values) && everyType.every((type) => types.includes(type)) && types.every((type) => everyType.includes(type));
    responses[String(status)] = narrowsNothing
      ? { $ref: `#/components/responses/${errorResponseName(status)}` }
      : {
          description: `${OPERATION_REASONS[status] ?? STATUS_CODES[status] ?? "An error."} Error types: ${types.join(", ")}.`,
          content: { "application/json": { schema: { allOf: [errorBodyReference(), narrowed(errors)] } } },
        };
  }
  return responses;
}

/** `error.type` (and `error.value`, where declared) narrowed: one branch per type with a value schema, one for the rest. */
function narrowed(errors: readonly DeclaredError[]): SchemaObject {
  const branches: SchemaObject[] = [];
  const plain = errors.filter((error) => !error.values).map((error) => error.type).sort();
  if (plain.length) branches.push(errorWith({ type: { enum: plain } }));
  for (const error of errors) {
    if (!error.values) continue;
    const values = error.values.map((schema) => outputJsonSchema(schema) as SchemaObject);
    branches.push(errorWith({ type: { const: error.type }, value: values.length === 1 ? values[0]! : { anyOf: values } }, ["value"]));
  }
  return branches.length === 1 ? branches[0]! : { anyOf: branches };
}

function errorWith(properties: Record<string, SchemaObject>, required?: string[]): SchemaObject {
  return {
    type: "object",
    properties: { error: { type: "object", properties, ...(required ? { required } : {}) } },
  };
}

function errorBodyReference(): ReferenceObject {
  return { $ref: `#/components/schemas/${ERROR_BODY_COMPONENT}` };
}
