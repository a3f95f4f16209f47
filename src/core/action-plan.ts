import type { Attributes } from "@opentelemetry/api";
import type { Logger } from "./logger";
import type { ActionMiddleware } from "./middleware";
import type { RegisteredAction } from "./registry";
import { isStreamingAction } from "./streaming";

/** What the dispatcher derives from a registered action once, rather than on every call. */
export interface ActionPlan {
  /** Global middleware, then the action's own. */
  chain: readonly ActionMiddleware[];
  /** The chain's middleware with a `runBeforeInputs`: most chains have none, and then no call pays for the hook. */
  admission: readonly ActionMiddleware[];
  /** Whether the action is declared streaming: only then is an async iterable from run a stream. */
  streams: boolean;
  /**
   * The request log's logger per connection type, with `action` and `connection` bound: pino
   * serializes a child's bindings once, instead of both fields on every line.
   */
  requestLoggers: Map<string, Logger>;
  /** The call-duration metric's attributes by transport (and error type), made on first use (see CallMetrics). */
  callAttributes?: Map<string, Attributes>;
  /** Its full declared error set, made on the first error of an action that declares `errors` (see RequestLog). */
  declared?: ReadonlySet<string>;
}

/** Each registered action's plan, made on its first call. */
export class ActionPlans {
  private readonly plans = new WeakMap<RegisteredAction, ActionPlan>();

  constructor(private readonly globalMiddleware: readonly ActionMiddleware[]) {}

  of(registered: RegisteredAction): ActionPlan {
    let plan = this.plans.get(registered);
    if (!plan) {
      const chain = [...this.globalMiddleware, ...registered.middleware];
      plan = {
        chain,
        admission: chain.filter((middleware) => middleware.runBeforeInputs),
        streams: isStreamingAction(registered.action),
        requestLoggers: new Map(),
      };
      this.plans.set(registered, plan);
    }
    return plan;
  }
}
