import type { Connection } from "./connection";
import type { ErrorDeclarations } from "./error-declarations";

export interface ActionMiddlewareResponse<P = Record<string, unknown>> {
  updatedParams?: P;
  updatedResponse?: unknown;
  /**
   * From `runBefore`: handed back to this middleware's own `runAfter` of the same call as
   * `context.callState`, for what it must finish once the outcome is known (a count to take back).
   * One long-lived connection carries concurrent calls, so the connection is no place for it.
   */
  callState?: unknown;
}

/** What `runAfter` can see beyond the spec's three arguments. */
export interface AfterContext {
  actionName: string;
  response: unknown;
  /** What this middleware's `runBefore` returned as `callState` in this call; undefined if nothing. */
  callState?: unknown;
}

/**
 * A credential a middleware accepts, in OpenAPI's terms: `scheme` is the security scheme the
 * document declares under `name` (an API key in a header, a session cookie, a bearer token).
 */
export interface MiddlewareSecurity {
  name: string;
  scheme:
    | { type: "apiKey"; in: "header" | "query" | "cookie"; name: string; description?: string }
    | { type: "http"; scheme: string; bearerFormat?: string; description?: string };
}

export interface ActionMiddleware<P = any> {
  name?: string;
  /**
   * Runs before the inputs are validated, with the params as the caller sent them: a throw refuses
   * the call before an input's transform (a database lookup, for one) runs or a validation error
   * describes the inputs. What it returns is ignored; params are changed in `runBefore`.
   */
  runBeforeInputs?(connection: Connection, rawParams: Readonly<Record<string, unknown>>): Promise<void> | void;
  /**
   * For a middleware that refuses callers without a credential: the credentials it accepts (any
   * one of them will do). The OpenAPI document requires them on every operation it guards.
   */
  security?: readonly MiddlewareSecurity[];
  /**
   * The typed errors it may end a call with (a sign-in check's CONNECTION_NOT_AUTHENTICATED):
   * they join the declared errors of every action it runs around. See docs/middleware.md.
   */
  errors?: ErrorDeclarations;
  runBefore?(params: P, connection: Connection): Promise<ActionMiddlewareResponse<P> | void>;
  runAfter?(
    params: P,
    connection: Connection,
    error?: Error,
    context?: AfterContext,
  ): Promise<ActionMiddlewareResponse<P> | void>;
}

/**
 * An instance of a global middleware: an `ActionMiddleware` that says nothing of being global, since
 * the class does (`GlobalMiddlewareClass`). The instance form of the flag is refused by the types as
 * by the boot, which would never build a class that carries it only there.
 */
export interface GlobalMiddleware extends ActionMiddleware {
  global?: never;
  priority?: never;
}

/**
 * A class in the app's middleware folder that runs around every action:
 * `static readonly global = true`, and `static readonly priority` to order it among the global ones.
 */
export interface GlobalMiddlewareClass<M extends ActionMiddleware = ActionMiddleware> {
  new (...args: any[]): M;
  readonly global: true;
  /** Lower runs first among global middleware; default 1000, equal priorities in file path order. */
  readonly priority?: number;
}

export function isGlobalMiddlewareClass(value: unknown): value is GlobalMiddlewareClass {
  return typeof value === "function" && (value as { global?: unknown }).global === true;
}
