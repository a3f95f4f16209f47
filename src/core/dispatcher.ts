import type { ActionDefinition } from "./action";
import { allowsTransport } from "./action-transports";
import { timeoutError, withinDeadline } from "./call-deadline";
import { isClientGone } from "./client-gone";
import type { Connection } from "./connection";
import { declaredErrors } from "./declared-errors";
import { DispatchedStream } from "./dispatched-stream";
import { toTypedError } from "./error-body";
import { ConcurrentCalls, type ConcurrentCallLimits } from "./concurrent-calls";
import { ErrorType, isTypedError, TypedError } from "./errors";
import type { ServiceFailure } from "./health";
import { isLevelOn, type Logger } from "./logger";
import type { ActionMiddleware, ActionMiddlewareResponse, AfterContext } from "./middleware";
import type { ActionRegistry, RegisteredAction } from "./registry";
import { LogParams, loggedParams } from "./log-params";
import { outputMismatch } from "./output-check";
import { assertParamsBounds, ParamsBounds } from "./params-bounds";
import { isAsyncIterable, isStreamingAction } from "./streaming";
import { parseParams } from "./validation";

export interface ActionResult {
  actionName: string;
  /** A streaming call's is a DispatchedStream: the call, runAfter and its log line included, ends with it. */
  response?: unknown;
  error?: TypedError;
  /** The HTTP-equivalent status: 200, or the error's status from ErrorStatusCodes. */
  status: number;
  /** For a streaming call, until its stream was handed over; its request log line covers the whole stream. */
  durationMs: number;
}

export interface DispatcherOptions {
  logger: Logger;
  actionTimeout: number;
  /** What params may hold before they are validated; the defaults when absent. */
  paramsBounds?: ParamsBounds;
  production: boolean;
  globalMiddleware?: readonly ActionMiddleware[];
  /** What the request log says of params (LOG_PARAMS); values by default. */
  logParams?: LogParams;
  /** Names the backing service, down or busy, that an error shows (see HealthRegistry.failureBehind). */
  failureBehind?: (error: unknown) => ServiceFailure | undefined;
  /** Bounds on calls in flight per connection and per remote address; none when absent. */
  concurrentCalls?: ConcurrentCallLimits;
  /** Whether a response is checked against its action's `outputs` (`CHECK_OUTPUTS`); not when absent. */
  checkOutputs?: boolean;
}

export interface DispatchOptions {
  /**
   * Aborts the action's signal from outside, e.g. when an HTTP client disconnects. One per call:
   * the action's signal listens to it for as long as it lives.
   */
  signal?: AbortSignal;
  /**
   * The call's own controller, made by the transport for this one call: the dispatcher passes its
   * signal to the action and aborts it at the call's deadline, instead of making a second
   * controller linked to `signal`. Takes precedence over `signal`.
   */
  controller?: AbortController;
}

type ParamsRecord = Record<string, unknown>;

/** The log line of an outcome that is no failure, though the call did not answer. */
const OUTCOME_MESSAGES: Partial<Record<ErrorType, string>> = {
  [ErrorType.CONNECTION_CLIENT_GONE]: "client gone",
  [ErrorType.CONNECTION_INPUT_REQUIRED]: "input required",
};

/** Whole seconds a caller is told to wait when a backing service is busy rather than down. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * A controller that aborts when `signal` does. Linked by hand rather than with AbortSignal.any,
 * which on Node 20 costs more than the rest of the dispatch (docs/performance.md). The link
 * outlives the call: a streamed response still stops when the client leaves.
 */
function linkedController(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  return controller;
}

/** What one call has come to so far: the chain updates it in place rather than returning a new object per step. */
interface CallOutcome {
  params: ParamsRecord;
  /** The params as the action's inputs gave them, before any middleware: what the request log shows. */
  validated: ParamsRecord | undefined;
  response: unknown;
  error: TypedError | undefined;
  /**
   * Set when the deadline answered the call: the chain still going then. It still holds what it
   * uses, and `error` stays the timeout whatever its later steps throw.
   */
  overrun?: Promise<unknown>;
  /** Set when run returned a stream: where the chain stopped, to unwind once the stream ends. */
  suspended?: SuspendedChain;
}

/** The middleware a streaming call entered, and what they left for their runAfter. */
interface SuspendedChain {
  entered: number;
  callStates: unknown[] | undefined;
}

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
async function admit(admission: readonly ActionMiddleware[], rawParams: ParamsRecord, connection: Connection): Promise<void> {
  for (const middleware of admission) await middleware.runBeforeInputs!(connection, rawParams);
}

/** What the dispatcher derives from a registered action once, rather than on every call. */
interface ActionPlan {
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
  /** Its full declared error set, made on the first error of an action that declares `errors` (see breach). */
  declared?: ReadonlySet<string>;
}

/** The one pipeline every transport calls: validate → runBefore → run → runAfter. */
export class Dispatcher {
  /** The app's global middleware, in the order they run around every action. */
  readonly globalMiddleware: readonly ActionMiddleware[];
  private readonly plans = new WeakMap<RegisteredAction, ActionPlan>();
  private readonly inFlight: ConcurrentCalls | undefined;

  constructor(
    private readonly registry: ActionRegistry,
    private readonly options: DispatcherOptions,
  ) {
    this.globalMiddleware = options.globalMiddleware ?? [];
    const limits = options.concurrentCalls;
    this.inFlight = limits && ConcurrentCalls.anyBound(limits) ? new ConcurrentCalls(limits) : undefined;
  }

  async run(
    actionName: string,
    rawParams: unknown,
    connection: Connection,
    dispatchOptions: DispatchOptions = {},
  ): Promise<ActionResult> {
    const started = performance.now();
    const registered = this.callable(actionName, connection);
    const call: CallOutcome = { params: (rawParams ?? {}) as ParamsRecord, validated: undefined, response: undefined, error: undefined };

    if (!registered) {
      call.error = new TypedError({
        message: `Unknown action "${actionName}"`,
        type: ErrorType.CONNECTION_ACTION_NOT_FOUND,
        key: "action",
        value: actionName,
      });
    } else {
      call.error = this.inFlight?.enter(connection);
      if (!call.error) {
        const controller = dispatchOptions.controller ?? linkedController(dispatchOptions.signal);
        try {
          await this.runWithinDeadline(registered, rawParams, call, connection, controller);
        } finally {
          // A chain that outlives its deadline still counts against its caller until it ends.
          if (call.overrun) {
            const leave = () => this.inFlight?.leave(connection);
            // Both ways: a derived promise of the rejection would be one nobody handles.
            void call.overrun.then(leave, leave);
          }
          // A stream counts until it ends (see streamed).
          else if (!call.suspended) this.inFlight?.leave(connection);
        }
        if (call.suspended) return this.streamed(registered, call, connection, controller, started, call.suspended);
        // No one receives the answer of a caller who has left, and what the abort made run throw is not a failure.
        if (isClientGone(controller.signal.reason)) call.error = controller.signal.reason;
      }
    }

    const durationMs = performance.now() - started;
    const { error } = call;
    const result: ActionResult = error
      ? { actionName, status: error.status, durationMs, error }
      : { actionName, status: 200, durationMs, response: call.response };
    this.log(registered, call.validated ?? rawParams, call.validated !== undefined, connection, result);
    return result;
  }

  /**
   * The action a call names, if its transport may call it. One it may not is not found, like a
   * name no action has: the answer and the log line tell the caller nothing of it.
   */
  private callable(actionName: string, connection: Connection): RegisteredAction | undefined {
    const registered = this.registry.get(actionName);
    return registered && allowsTransport(registered.action, connection.type) ? registered : undefined;
  }

  /**
   * The whole chain within the action's one deadline: when it passes, the call is answered with the
   * timeout at once and its signal aborts, while the step under way finishes by itself and the
   * chain then only unwinds (see runChain).
   */
  private runWithinDeadline(
    registered: RegisteredAction,
    rawParams: unknown,
    call: CallOutcome,
    connection: Connection,
    controller: AbortController,
  ): Promise<void> {
    const chain = this.validateAndRun(registered, rawParams, call, connection, controller.signal);
    const timeoutMs = registered.action.timeout ?? this.options.actionTimeout;
    if (!timeoutMs) return chain;
    return withinDeadline(chain, timeoutMs, () => {
      const timedOut = timeoutError(registered.name, timeoutMs);
      call.error = timedOut;
      call.overrun = chain;
      controller.abort(timedOut);
    });
  }

  private async validateAndRun(
    registered: RegisteredAction,
    rawParams: unknown,
    call: CallOutcome,
    connection: Connection,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      assertParamsBounds(rawParams, this.options.paramsBounds);
      const { admission } = this.planOf(registered);
      if (admission.length > 0) await admit(admission, call.params, connection);
      const parsed = parseParams(registered.action.inputs, rawParams);
      call.params = parsed instanceof Promise ? await parsed : parsed;
      call.validated = call.params;
    } catch (thrown) {
      this.fail(call, thrown, connection, registered.name);
    }
    if (!call.error) await this.runChain(registered, call, connection, signal);
    const { outputs } = registered.action;
    if (outputs && this.options.checkOutputs && !call.error && !isAsyncIterable(call.response)) {
      const found = outputMismatch(registered.name, outputs, call.response);
      call.error = found instanceof Promise ? await found : found;
    }
  }

  /** Records what a step threw; once the deadline has answered the call, its timeout stands and the throw is only logged. */
  private fail(call: CallOutcome, thrown: unknown, connection: Connection, actionName: string): void {
    if (call.overrun) this.options.logger.debug({ action: actionName, err: thrown }, "a step threw after the call's deadline");
    else call.error = this.normalize(thrown, connection);
  }

  /**
   * Runs the middleware and the action, recording params, response and error in `call`. A call
   * whose deadline has passed starts no further runBefore and no run; the runAfter of each
   * middleware entered still runs, once the step under way has settled, with the timeout error.
   */
  private async runChain(
    registered: RegisteredAction,
    call: CallOutcome,
    connection: Connection,
    signal: AbortSignal,
    resumed?: SuspendedChain,
  ): Promise<void> {
    const plan = this.planOf(registered);
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
        this.fail(call, thrown, connection, registered.name);
        break;
      }
    }

    if (!resumed && !call.error) {
      try {
        call.response = await invoke(registered.action, call.params, connection, signal);
      } catch (thrown) {
        this.fail(call, thrown, connection, registered.name);
      }
      if (plan.streams && isAsyncIterable(call.response)) {
        // The call goes on as long as its stream: runAfter waits for the stream's end (see streamed).
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
          if (resumed) this.options.logger.debug({ action: registered.name, middleware: middleware.name }, "runAfter's updatedResponse is ignored: the stream was sent already");
          else call.response = outcome.updatedResponse;
        }
      } catch (thrown) {
        if (call.error) {
          this.options.logger.error({ action: registered.name, err: thrown }, "runAfter failed after the call had already failed");
        }
        call.error ??= this.normalize(thrown, connection);
      }
    }
  }

  /**
   * Hands a streaming call's stream to its transport. The call goes on until the stream ends: its
   * one deadline keeps running (the rest of it) through the stream and the runAfters after it, it
   * still counts against its caller, and its runAfter and request log line wait for the stream's
   * outcome. As for any call, the deadline answers the caller at once, and what is under way then
   * finishes by itself.
   */
  private streamed(
    registered: RegisteredAction,
    call: CallOutcome,
    connection: Connection,
    controller: AbortController,
    started: number,
    suspended: SuspendedChain,
  ): ActionResult {
    const timeoutMs = registered.action.timeout ?? this.options.actionTimeout;
    let unwinding: Promise<void> | undefined;
    let answer: ((error: TypedError | undefined) => void) | undefined;
    let answeredAtDeadline = false;
    const expire = () => {
      const timedOut = timeoutError(registered.name, timeoutMs);
      if (unwinding) {
        // Past the stream, during its runAfters: the caller, still waiting for the stream's end, is answered now.
        call.error = timedOut;
        call.overrun = unwinding;
        answeredAtDeadline = true;
        this.logStream(registered, call, connection, started);
        answer?.(timedOut);
      }
      // Still streaming: the stream ends on the abort, with this reason (see below).
      controller.abort(timedOut);
    };
    const remainingMs = Math.max(0, Math.ceil(timeoutMs - (performance.now() - started)));
    const timer = timeoutMs ? setTimeout(expire, remainingMs) : undefined;
    const stream = new DispatchedStream(call.response as AsyncIterable<unknown>, registered.name, controller.signal, (failed, thrown, closed) => {
      if (failed) call.error = this.normalize(thrown, connection);
      if (call.error?.type === ErrorType.CONNECTION_ACTION_TIMEOUT) {
        answeredAtDeadline = true;
        this.logStream(registered, call, connection, started);
      }
      const chain = closed.then(() => this.runChain(registered, call, connection, controller.signal, suspended));
      unwinding = chain;
      return new Promise((resolve) => {
        answer = resolve;
        const unwound = () => {
          clearTimeout(timer);
          this.inFlight?.leave(connection);
          if (!answeredAtDeadline) this.logStream(registered, call, connection, started);
          resolve(call.error);
        };
        void chain.then(unwound, unwound);
      });
    }, this.options.checkOutputs ? registered.action.outputs : undefined);
    return { actionName: registered.name, status: 200, durationMs: performance.now() - started, response: stream };
  }

  private logStream(registered: RegisteredAction, call: CallOutcome, connection: Connection, started: number): void {
    const durationMs = performance.now() - started;
    const { error } = call;
    const result: ActionResult = error
      ? { actionName: registered.name, status: error.status, durationMs, error }
      : { actionName: registered.name, status: 200, durationMs };
    this.log(registered, call.validated, true, connection, result);
  }

  private planOf(registered: RegisteredAction): ActionPlan {
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

  /** The logger for `registered`'s request log lines from `connectionType`, at the process logger's level. */
  private requestLoggerOf(registered: RegisteredAction, connectionType: string): Logger {
    const { logger } = this.options;
    const { requestLoggers } = this.planOf(registered);
    let requestLogger = requestLoggers.get(connectionType);
    if (!requestLogger) {
      requestLogger = logger.child({ action: registered.name, connection: connectionType });
      requestLoggers.set(connectionType, requestLogger);
    }
    // pino's children follow their parent's level, but a Logger of the app's own may keep the one it was made with.
    if (requestLogger.level !== logger.level) requestLogger.level = logger.level;
    return requestLogger;
  }

  private normalize(thrown: unknown, connection: Connection): TypedError {
    const failure = isTypedError(thrown) ? undefined : this.options.failureBehind?.(thrown);
    if (failure === undefined) return toTypedError(thrown, this.options.production);
    const { service, busy } = failure;
    const detail = thrown instanceof Error ? thrown.message : String(thrown);
    if (busy) {
      // Busy is passing: the caller is told when to come back, as a 429 would.
      connection.responseHeaders["Retry-After"] = String(BUSY_RETRY_AFTER_SECONDS);
      return new TypedError({
        message: `The ${service} is busy, retry shortly`,
        type: ErrorType.CONNECTION_SERVICE_BUSY,
        value: { retryAfter: BUSY_RETRY_AFTER_SECONDS },
        cause: thrown,
      });
    }
    return new TypedError({
      message: this.options.production ? `The ${service} is unavailable` : `The ${service} is unavailable: ${detail}`,
      type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
      cause: thrown,
    });
  }

  /**
   * Outside production, an error the action's declared set lacks is logged as a contract breach:
   * the caller still gets it as it is, the contract (OpenAPI document, client types) is what is wrong.
   */
  private checkDeclared(registered: RegisteredAction, error: TypedError): void {
    const plan = this.planOf(registered);
    plan.declared ??= new Set(
      declaredErrors(registered.action, {
        middleware: plan.chain,
        timeoutApplies: (registered.action.timeout ?? this.options.actionTimeout) !== 0,
      }).keys(),
    );
    if (plan.declared.has(error.type)) return;
    this.options.logger.warn({ action: registered.name, errorType: error.type }, "contract breach: action ended with an error it does not declare");
  }

  private log(
    registered: RegisteredAction | undefined,
    params: unknown,
    validated: boolean,
    connection: Connection,
    result: ActionResult,
  ): void {
    const { logger } = this.options;
    if (result.error && registered?.action.errors && this.options.checkOutputs) this.checkDeclared(registered, result.error);
    const failed = result.status >= 500;
    if (!isLevelOn(logger, failed ? "error" : "info")) return;
    // An unknown action's name comes from the caller: a child logger per name would grow without bound.
    const entry: Record<string, unknown> = registered ? {} : { action: result.actionName, connection: connection.type };
    entry.connectionId = connection.id;
    entry.durationMs = Math.round(result.durationMs * 1000) / 1000;
    entry.status = result.status;
    Object.assign(entry, loggedParams(this.options.logParams ?? LogParams.values, registered?.action.inputs, params, validated));
    if (connection.requestId) entry.requestId = connection.requestId;
    if (result.error) {
      entry.error = { type: result.error.type, message: result.error.message };
      if (failed) entry.err = result.error.cause ?? result.error;
    }
    const lineLogger = registered ? this.requestLoggerOf(registered, connection.type) : logger;
    if (failed) lineLogger.error(entry, "action failed");
    else lineLogger.info(entry, (result.error && OUTCOME_MESSAGES[result.error.type]) ?? "action");
  }
}
