import type { Connection } from "./connection";

export interface ActionMiddlewareResponse<P = Record<string, unknown>> {
  updatedParams?: P;
  updatedResponse?: unknown;
}

/** What `runAfter` can see beyond the spec's three arguments. */
export interface AfterContext {
  actionName: string;
  response: unknown;
}

export interface ActionMiddleware<P = any> {
  name?: string;
  /**
   * Runs before the inputs are validated, with the params as the caller sent them: a throw refuses
   * the call before an input's transform (a database lookup, for one) runs or a validation error
   * describes the inputs. What it returns is ignored; params are changed in `runBefore`.
   */
  runBeforeInputs?(connection: Connection, rawParams: Readonly<Record<string, unknown>>): Promise<void> | void;
  runBefore?(params: P, connection: Connection): Promise<ActionMiddlewareResponse<P> | void>;
  runAfter?(
    params: P,
    connection: Connection,
    error?: Error,
    context?: AfterContext,
  ): Promise<ActionMiddlewareResponse<P> | void>;
}

/** A middleware class in the app's middleware folder that applies to every action. */
export interface GlobalMiddleware extends ActionMiddleware {
  global: true;
  /** Lower runs first among global middleware; default 1000. */
  priority?: number;
}
