import type { z } from "zod";
import type { busyRetry, tooManyInFlight } from "./declared-errors";
import type { ErrorType } from "./errors";

/** `"CONNECTION_CONFLICT"` → `ErrorType.CONNECTION_CONFLICT`. */
type ErrorTypeNamed<Name> = { [T in ErrorType]: `${T}` extends Name ? T : never }[ErrorType];

/** The errors one `errors` declaration describes, as a client receives them. */
type DeclaredIn<Declarations> = Declarations extends object
  ? {
      [Name in keyof Declarations & `${ErrorType}`]: Declarations[Name] extends false | undefined
        ? never
        : Declarations[Name] extends z.ZodType
          ? { type: ErrorTypeNamed<Name>; value: z.output<Declarations[Name]> }
          : { type: ErrorTypeNamed<Name>; value?: unknown };
    }[keyof Declarations & `${ErrorType}`]
  : never;

type OwnErrors<A> = A extends { errors?: infer Declarations } ? DeclaredIn<NonNullable<Declarations>> : never;

type MiddlewareErrors<A> = A extends { middleware?: infer List }
  ? NonNullable<List> extends readonly (infer Reference)[]
    ? Reference extends abstract new (...args: any[]) => infer Instance
      ? OwnErrors<Instance>
      : OwnErrors<Reference>
    : never
  : never;

/**
 * The errors Herald itself may end a call with, for any action: validation, bounds, timeout,
 * failure, a service down or busy, and the HTTP transport's body errors. Which of them an
 * operation lists depends on its shape (docs/errors.md, "Declared errors").
 */
export type HeraldError =
  | {
      type:
        | ErrorType.CONNECTION_ACTION_PARAM_FORMATTING
        | ErrorType.CONNECTION_ACTION_PARAM_REQUIRED
        | ErrorType.CONNECTION_ACTION_PARAM_VALIDATION
        | ErrorType.CONNECTION_PAYLOAD_TOO_LARGE
        | ErrorType.CONNECTION_UNSUPPORTED_MEDIA_TYPE
        | ErrorType.CONNECTION_ACTION_TIMEOUT
        | ErrorType.CONNECTION_ACTION_RUN
        | ErrorType.CONNECTION_SERVER_ERROR
        | ErrorType.CONNECTION_ACTION_OUTPUT_VALIDATION
        | ErrorType.CONNECTION_SERVICE_UNAVAILABLE;
      value?: unknown;
    }
  | { type: ErrorType.CONNECTION_RATE_LIMITED; value: z.output<typeof tooManyInFlight> }
  | { type: ErrorType.CONNECTION_SERVICE_BUSY; value: z.output<typeof busyRetry> };

/**
 * The errors a call of the action may end with, as a union narrowed by `type`: what the action
 * declares in `errors`, what its own middleware declare, and Herald's (`HeraldError`). `A` is the
 * action class or the options of its `@Action` decorator. Global middleware are the app's, not the
 * action's: their errors are in the OpenAPI document, not in this type.
 */
export type ActionErrors<A> = OwnErrors<A> | MiddlewareErrors<A> | HeraldError;
