import type { ActionMiddleware, ActionMiddlewareResponse, Connection } from "herald";

/**
 * Runs around the actions that list it (`middleware: [{{className}}]`). Give the class
 * `static readonly global = true` to run it around every action instead. Listed by no action and
 * not global, it is not built: the boot warns about it.
 */
export class {{className}} implements ActionMiddleware {
  name = "{{middlewareName}}";

  async runBefore(_params: Record<string, unknown>, _connection: Connection): Promise<ActionMiddlewareResponse | void> {
    // Throw a TypedError to stop the action; return { updatedParams } to change its params.
  }

  async runAfter(
    _params: Record<string, unknown>,
    _connection: Connection,
    _error?: Error,
  ): Promise<ActionMiddlewareResponse | void> {
    // Runs after every call, also when the action threw; return { updatedResponse } to change the response.
  }
}
