import { z } from "zod";
import { isSecretPath } from "./secret";
import { ErrorIssue, ErrorType, TypedError } from "./errors";
import { safeParseEither } from "./sync-parse";

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = Object.prototype.hasOwnProperty.call(current, segment)
      ? (current as Record<PropertyKey, unknown>)[segment]
      : undefined;
  }
  return current;
}

/** One TypedError for a failed parse, listing every issue and never echoing a secret. */
export function validationError(schema: z.ZodType, error: z.ZodError, input: unknown): TypedError {
  const issues: ErrorIssue[] = error.issues.map((issue) => ({
    path: issue.path.map((segment) => (typeof segment === "number" ? segment : String(segment))),
    message: issue.message,
    code: issue.code,
  }));
  const first = error.issues[0]!;
  const key = first.path.map(String).join(".");
  const value = valueAt(input, first.path);
  const missing = first.code === "invalid_type" && value === undefined;
  const where = key ? `"${key}"` : "params";
  return new TypedError({
    message: missing ? `Missing required param ${where}` : `Invalid value for ${where}: ${first.message}`,
    type: missing ? ErrorType.CONNECTION_ACTION_PARAM_REQUIRED : ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
    ...(key ? { key } : {}),
    ...(value !== undefined && !isSecretPath(schema, first.path) ? { value } : {}),
    issues,
  });
}

type Params = Record<string, unknown>;

/**
 * The params `schema` parses `input` into; throws, or rejects with, the validation error. Returns
 * them synchronously when no step of the schema can be async, a promise otherwise.
 */
export function parseParams(schema: z.ZodType | undefined, input: unknown): Params | Promise<Params> {
  const raw = input ?? {};
  if (!schema) return raw as Params;
  const parsed = safeParseEither(schema, raw);
  return parsed instanceof Promise ? parsed.then((settled) => outcome(schema, settled, raw)) : outcome(schema, parsed, raw);
}

function outcome(schema: z.ZodType, parsed: z.ZodSafeParseResult<unknown>, raw: unknown): Params {
  if (!parsed.success) throw validationError(schema, parsed.error, raw);
  return parsed.data as Params;
}
