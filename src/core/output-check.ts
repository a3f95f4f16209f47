import { z } from "zod";
import { ErrorType, TypedError } from "./errors";
import { safeParseEither } from "./sync-parse";

/** A zod path as a reader writes it: `messages[0].author.id`. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((segment, index) => (typeof segment === "number" ? `[${segment}]` : `${index ? "." : ""}${String(segment)}`)).join("");
}

/** Where a zod error's first issue is and what it says: `at items[1].id: Expected number`. */
export function firstIssue(error: z.ZodError): string {
  const first = error.issues[0]!;
  return `${first.path.length ? `at ${pathText(first.path)}` : "as a whole"}: ${first.message}`;
}

function mismatch(actionName: string, error: z.ZodError): TypedError {
  return new TypedError({
    message: `Action "${actionName}" returned a response its outputs do not describe, ${firstIssue(error)}`,
    type: ErrorType.CONNECTION_ACTION_OUTPUT_VALIDATION,
    // Every issue goes to the request log with the cause; the caller learns only the first path.
    cause: error,
  });
}

/**
 * The error `toError` makes of a value `schema` does not describe, or undefined when it does. The
 * value itself is left as it is: the check tells, it does not change. A promise only when a step
 * of the schema can be async.
 */
export function schemaMismatch(
  schema: z.ZodType,
  value: unknown,
  toError: (error: z.ZodError) => TypedError,
): TypedError | undefined | Promise<TypedError | undefined> {
  const verdict = (parsed: z.ZodSafeParseResult<unknown>) => (parsed.success ? undefined : toError(parsed.error));
  const parsed = safeParseEither(schema, value);
  return parsed instanceof Promise ? parsed.then(verdict) : verdict(parsed);
}

/** The error for a response that `outputs` do not describe, or undefined when they do. */
export function outputMismatch(
  actionName: string,
  outputs: z.ZodType,
  response: unknown,
): TypedError | undefined | Promise<TypedError | undefined> {
  return schemaMismatch(outputs, response, (error) => mismatch(actionName, error));
}
