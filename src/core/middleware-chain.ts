import { callIds } from "./call-ids";
import type { ActionDefinition } from "./action";
import type { ActionPlan } from "./action-plan";
import type { CallFailures } from "./call-failures";
import type { CallOutcome, ParamsRecord, SuspendedChain } from "./call-outcome";
import type { Connection } from "./connection";
import type { Logger } from "./logger";
import type { ActionMiddleware, ActionMiddlewareResponse, AfterContext } from "./middleware";
import type { RegisteredAction } from "./registry";
import { isAsyncIterable } from "./streaming";

/**
 * What a middleware step returns. Typed as a promise, but a plain function may return its outcome
 * (or nothing) synchronously, and awaiting that would cost a turn of the microtask queue for nothing.
 */
type MiddlewareOutcome = ActionMiddlewareResponse | void | PromiseLike<ActionMiddlewareResponse | void>;

function isPromiseLike(value: MiddlewareOutcome): value is PromiseLike<ActionMiddlewareResponse | void> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === "function";
}

/** The action's run as a promise, a synchronous throw included. */
function invoke(action: ActionDefinition, params: ParamsRecord, connection: Connection, signal: AbortSignal): Promise<unknown> {
  try {
    return Promise.resolve(action.run(params, connection, signal));
  } catch (thrown) {
    return Promise.reject(thrown);
  }
}

/** The chain's `runBeforeInputs`, in chain order; a throw refuses the call before its inputs are read. */
export async function admit(admission: readonly ActionMiddleware[], rawParams: ParamsRecord, connection: Connection): Promise<void> {
  for (const middleware of admission) await middleware.runBeforeInputs!(connection, rawParams);
}

/** Runs calls through their plan's middleware and action; one per dispatcher. */
export class MiddlewareChain {
  constructor(
    private readonly failures: CallFailures,
    private readonly logger: Logger,
  ) {}

  /**
   * Runs the middleware and the action, recording params, response and error in `call`. A call
   * whose deadline has passed starts no further runBefore and no run; the runAfter of each
   * middleware entered still runs, once the step under way has settled, with the timeout error.
   * A streaming call stops after run (`call.suspended`); given `resumed`, where it stopped, only
   * the runAfters are left to run.
   */
  async run(
    registered: RegisteredAction,
    plan: ActionPlan,
    call: CallOutcome,
    connection: Connection,
    signal: AbortSignal,
    resumed?: SuspendedChain,
  ): Promise<void> {
    const { failures } = this;
    const { chain } = plan;
    let entered = resumed ? resumed.entered : 0;
    // Made only when a middleware leaves something for its runAfter: most chains never do.
    let callStates = resumed?.callStates;

    while (!resumed && entered < chain.length && !call.error) {
      const middleware = chain[entered++]!;
      if (!middleware.runBefore) continue;
      try {
        const pending: MiddlewareOutcome = middleware.runBefore(call.params, connection);
        const outcome = isPromiseLike(pending) ? await pending : pending;
        if (outcome?.updatedParams !== undefined) call.params = outcome.updatedParams as ParamsRecord;
        if (outcome?.callState !== undefined) (callStates ??= [])[entered - 1] = outcome.callState;
      } catch (thrown) {
        failures.record(call, thrown, registered.name, connection);
        break;
      }
    }

    if (!resumed && !call.error) {
      try {
        call.response = await (call.runInstead
          ? Promise.resolve().then(() => call.runInstead!(call.params, connection, signal))
          : invoke(registered.action, call.params, connection, signal));
      } catch (thrown) {
        failures.record(call, thrown, registered.name, connection);
      }
      if (plan.streams && isAsyncIterable(call.response)) {
        // The call goes on as long as its stream: runAfter waits for the stream's end (see streamed-call.ts).
        if (!call.error) {
          call.suspended = { entered, callStates };
          return;
        }
        // Run returned it after the deadline had answered the call: it is never read.
        void call.response[Symbol.asyncIterator]().return?.()?.catch(() => undefined);
      }
    }

    while (entered > 0) {
      const middleware = chain[--entered]!;
      if (!middleware.runAfter) continue;
      try {
        const context: AfterContext = { actionName: registered.name, response: call.response };
        if (callStates?.[entered] !== undefined) context.callState = callStates[entered];
        const pending: MiddlewareOutcome = middleware.runAfter(call.params, connection, call.error, context);
        const outcome = isPromiseLike(pending) ? await pending : pending;
        if (!call.error && outcome && "updatedResponse" in outcome) {
          if (resumed) this.logger.debug(
            { action: registered.name, ...callIds(connection, call.logFields), middleware: middleware.name },
            "runAfter's updatedResponse is ignored: the stream was sent already",
          );
          else call.response = outcome.updatedResponse;
        }
      } catch (thrown) {
        if (call.error) {
          this.logger.error({ action: registered.name, ...callIds(connection, call.logFields), err: thrown }, "runAfter failed after the call had already failed");
        }
        call.error ??= failures.normalize(thrown);
      }
    }
  }
}
