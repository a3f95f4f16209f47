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
