import { z } from "zod";
import type { ActionDefinition } from "./action";
import { ErrorStatusCodes, ErrorType } from "./errors";
import type { ErrorDeclarations } from "./error-declarations";
import type { ActionMiddleware } from "./middleware";


/** One error type of an action's declared set: `values` are the declared schemas of its `value`; undefined when any value may come. */
export interface DeclaredError {
  type: ErrorType;
  status: number;
  values?: readonly z.ZodType[];
}

export interface DeclaredErrorsOptions {
  /** The middleware around the action: global first, then its own. */
  middleware: readonly ActionMiddleware[];
  /** Whether a deadline applies to its calls (its `timeout`, else `ACTION_TIMEOUT`, is not 0). */
  timeoutApplies: boolean;
  /** What the transport serving it adds (the HTTP transport's body errors, say); core knows no transport. */
  transport?: readonly ErrorDeclarations[];
}

const retryAfter = z.number().int().describe("Whole seconds to wait before retrying, as the Retry-After header says.");

/** The concurrent-call bound's refusal (core/concurrent-calls.ts). */
export const tooManyInFlight = z.object({ limit: z.number().int(), retryAfter });

/** A busy server's refusal: how long to wait. */
export const busyRetry = z.object({ retryAfter });

/** What the dispatcher itself may end any call with, whatever the action. */
const EVERY_CALL: ErrorDeclarations = {
  [ErrorType.CONNECTION_ACTION_PARAM_FORMATTING]: true,
  [ErrorType.CONNECTION_PAYLOAD_TOO_LARGE]: true,
  [ErrorType.CONNECTION_RATE_LIMITED]: tooManyInFlight,
  [ErrorType.CONNECTION_ACTION_RUN]: true,
  [ErrorType.CONNECTION_SERVER_ERROR]: true,
  [ErrorType.CONNECTION_SERVICE_UNAVAILABLE]: true,
  [ErrorType.CONNECTION_SERVICE_BUSY]: busyRetry,
  [ErrorType.CONNECTION_CLIENT_GONE]: true,
};

const WITH_INPUTS: ErrorDeclarations = {
  [ErrorType.CONNECTION_ACTION_PARAM_REQUIRED]: true,
  [ErrorType.CONNECTION_ACTION_PARAM_VALIDATION]: true,
};

/** The dispatcher's own errors for an action of this shape: validation only with inputs, timeout only under a deadline. */
export function dispatcherErrors(action: Pick<ActionDefinition, "inputs" | "outputs">, timeoutApplies: boolean): ErrorDeclarations[] {
  const declared = [EVERY_CALL];
  if (action.inputs) declared.push(WITH_INPUTS);
  if (action.outputs) declared.push({ [ErrorType.CONNECTION_ACTION_OUTPUT_VALIDATION]: true });
  if (timeoutApplies) declared.push({ [ErrorType.CONNECTION_ACTION_TIMEOUT]: true });
  return declared;
}

/**
 * An action's full declared set: its own `errors`, its middleware's (global included), the
 * dispatcher's for its shape and the transport's. A type declared with no schema anywhere may
 * carry any value; otherwise its value is one of the declared schemas.
 */
export function declaredErrors(action: ActionDefinition, options: DeclaredErrorsOptions): ReadonlyMap<ErrorType, DeclaredError> {
  const sources = [
    ...dispatcherErrors(action, options.timeoutApplies),
    ...(options.transport ?? []),
    ...options.middleware.flatMap((middleware) => (middleware.errors ? [middleware.errors] : [])),
    ...(action.errors ? [action.errors] : []),
  ];
  const found = new Map<ErrorType, DeclaredError>();
  for (const declarations of sources) {
    for (const [type, declared] of Object.entries(declarations) as [ErrorType, z.ZodType | boolean | undefined][]) {
      if (declared === false || declared === undefined) continue;
      const known = found.get(type);
      if (declared === true) {
        found.set(type, { type, status: ErrorStatusCodes[type] });
        continue;
      }
      if (known && !known.values) continue;
      const values = known?.values ?? [];
      found.set(type, { type, status: ErrorStatusCodes[type], values: values.includes(declared) ? values : [...values, declared] });
    }
  }
  return found;
}
