import type { ActionMiddleware, ActionMiddlewareResponse, Connection } from "herald";

/**
{{usage}}
 */
export class {{className}} implements ActionMiddleware {{{globalMembers}}
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
