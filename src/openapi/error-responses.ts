import { STATUS_CODES } from "node:http";
import { z } from "zod";
import type { ReferenceObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import type { ActionDefinition } from "../core/action";
import { ErrorStatusCodes, ErrorType } from "../core/errors";
import { errorBodySchema } from "./error-body-schema";

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

/** Every status an ErrorType a client can receive maps to, each with the error types that produce it. */
export function errorTypesByStatus(): Map<number, ErrorType[]> {
  const byStatus = new Map<number, ErrorType[]>();
  for (const [type, status] of Object.entries(ErrorStatusCodes) as [ErrorType, number][]) {
    if (NEVER_SENT.has(type)) continue;
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

export interface OperationShape {
  hasInputs: boolean;
  hasBody: boolean;
  /** A middleware around it requires a credential, and refuses a call without one. */
  guarded: boolean;
}

/**
 * The error responses of one operation: the ones the server itself produces for it (unparseable,
 * oversized or unreadable body, failed validation, missing credentials, timeout, failure), and `default` for whatever a middleware
 * or the action throws, whose status ErrorStatusCodes decides.
 */
export function operationErrorResponses(
  action: ActionDefinition,
  shape: OperationShape,
): Record<string, ResponseObject | ReferenceObject> {
  const statuses: number[] = [];
  if (shape.hasBody) statuses.push(400, 413);
  if (shape.hasBody && shape.hasInputs) statuses.push(415);
  if (shape.hasInputs) statuses.push(422);
  if (shape.guarded) statuses.push(401);
  if (action.timeout !== 0) statuses.push(504);
  statuses.push(500);
  const responses: Record<string, ResponseObject | ReferenceObject> = {};
  for (const status of statuses.sort((a, b) => a - b)) {
    responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  }
  responses.default = {
    description: "Any other error a middleware or the action raises, with the status ErrorStatusCodes gives its type.",
    content: { "application/json": { schema: errorBodyReference() } },
  };
  return responses;
}

function errorBodyReference(): ReferenceObject {
  return { $ref: `#/components/schemas/${ERROR_BODY_COMPONENT}` };
}
