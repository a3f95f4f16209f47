import { z } from "zod";
import { ErrorType, TypedError } from "./errors";
import { markAsync, parsesSynchronously } from "./sync-parse";

/** A zod path as a reader writes it: `messages[0].author.id`. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((segment, index) => (typeof segment === "number" ? `[${segment}]` : `${index ? "." : ""}${String(segment)}`)).join("");
}

function mismatch(actionName: string, error: z.ZodError): TypedError {
  const first = error.issues[0]!;
  const where = first.path.length ? `at ${pathText(first.path)}` : "as a whole";
  return new TypedError({
    message: `Action "${actionName}" returned a response its outputs do not describe, ${where}: ${first.message}`,
    type: ErrorType.CONNECTION_ACTION_OUTPUT_VALIDATION,
    // Every issue goes to the request log with the cause; the caller learns only the first path.
    cause: error,
  });
}

/**
 * The error for a response that `outputs` do not describe, or undefined when they do. The
 * response itself is left as `run` returned it: the check tells, it does not change. A promise
 * only when a step of the schema can be async.
 */
export function outputMismatch(
  actionName: string,
  outputs: z.ZodType,
  response: unknown,
): TypedError | undefined | Promise<TypedError | undefined> {
  if (parsesSynchronously(outputs)) {
    try {
      const parsed = outputs.safeParse(response);
      return parsed.success ? undefined : mismatch(actionName, parsed.error);
    } catch (thrown) {
      if (!(thrown instanceof z.core.$ZodAsyncError)) throw thrown;
      markAsync(outputs);
    }
  }
  return outputs.safeParseAsync(response).then((parsed) => (parsed.success ? undefined : mismatch(actionName, parsed.error)));
}
