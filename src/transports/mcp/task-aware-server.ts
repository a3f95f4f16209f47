import { Server } from "@modelcontextprotocol/server";

type Handler = Parameters<Server["_wrapHandler"]>[1];

/** A `tools/call` result that is a task (SEP-2663's CreateTaskResult), carried past the SDK's CallToolResult check. */
class TaskCreated {
  constructor(readonly result: Awaited<ReturnType<Handler>>) {}
}

function isTaskResult(result: unknown): boolean {
  return typeof result === "object" && result !== null && (result as { resultType?: unknown }).resultType === "task";
}

/**
 * The SDK's low-level server, with one difference: a `tools/call` handler may answer with a task.
 * The SDK checks every `tools/call` result against CallToolResult (after checking the request),
 * and its schemas know only the 2025-11-25 task shape; its encoder already passes a `resultType`
 * of `tools/call` through. The request is still checked; only the task result skips the result
 * check, through the `_wrapHandler` hook the SDK offers subclasses.
 */
export class TaskAwareServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    if (method !== "tools/call") return super._wrapHandler(method, handler);
    const checked = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if (isTaskResult(result)) throw new TaskCreated(result);
      return result;
    });
    return async (request, ctx) => {
      try {
        return await checked(request, ctx);
      } catch (thrown) {
        if (thrown instanceof TaskCreated) return thrown.result;
        throw thrown;
      }
    };
  }
}
