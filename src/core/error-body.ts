import { ErrorIssue, ErrorType, TypedError, isTypedError } from "./errors";
import { toJsonValue } from "./response-encoder";

export interface ErrorBody {
  error: {
    message: string;
    type: ErrorType;
    key?: string;
    value?: unknown;
    issues?: ErrorIssue[];
    timestamp: string;
    stack?: string;
  };
}

const GENERIC_FAILURE = "The action failed. See the server log for details.";

/**
 * Turns anything an action can throw into a TypedError. A foreign error keeps its own
 * message outside production; in production its details stay in the log only.
 */
export function toTypedError(thrown: unknown, production: boolean): TypedError {
  if (isTypedError(thrown)) return thrown;
  const detail = thrown instanceof Error ? thrown.message : String(thrown);
  const wrapped = new TypedError({
    message: production ? GENERIC_FAILURE : detail || GENERIC_FAILURE,
    type: ErrorType.CONNECTION_ACTION_RUN,
    cause: thrown,
  });
  if (thrown instanceof Error && thrown.stack) wrapped.stack = thrown.stack;
  return wrapped;
}

/**
 * An error's `value` as every transport can send it, by the responses' own encoding (a Date is
 * its ISO string, bytes are base64); a BigInt is its decimal text, and a value JSON cannot hold at
 * all (a cycle) is left out, so that the error itself still reaches the caller.
 */
function encodableValue(value: unknown): unknown {
  if (typeof value === "bigint") return String(value);
  if (value === null || typeof value !== "object") return value;
  try {
    return toJsonValue("error", value);
  } catch {
    return undefined;
  }
}

/** The one error body shape of every transport. */
export function errorBody(error: TypedError, production: boolean): ErrorBody {
  const body: ErrorBody["error"] = {
    message: error.message,
    type: error.type,
    timestamp: new Date(error.timestamp).toISOString(),
  };
  if (error.key !== undefined) body.key = error.key;
  const value = error.value === undefined ? undefined : encodableValue(error.value);
  if (value !== undefined) body.value = value;
  if (error.issues !== undefined) body.issues = error.issues;
  if (!production && error.stack) body.stack = error.stack;
  return { error: body };
}

/** The TypedError an error body stands for, where only the body crossed (a stored answer, a job's failure). */
export function typedErrorOf(body: ErrorBody["error"]): TypedError {
  const { message, type, key, value, issues } = body;
  return new TypedError({ message, type, ...(key === undefined ? {} : { key }), ...(value === undefined ? {} : { value }), ...(issues ? { issues } : {}) });
}
