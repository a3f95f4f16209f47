import type { Meter } from "@opentelemetry/api";
import { ActionPlans } from "./action-plan";
import type { ActionResult, Answer } from "./action-result";
import { allowsTransport } from "./action-transports";
import { timeoutError, withinDeadline } from "./call-deadline";
import { CallSpan } from "./call-span";
import { CallFailures } from "./call-failures";
import type { CallMetrics } from "./call-metrics";
import type { CallOutcome, ParamsRecord, SuspendedChain } from "./call-outcome";
import { isClientGone } from "./client-gone";
import type { Connection } from "./connection";
import type { CONNECTION_TYPE } from "./constants";
import { ConcurrentCalls } from "./concurrent-calls";
import type { ActionRefusal, DispatcherOptions, DispatchOptions } from "./dispatch-options";
import { DispatchedStream } from "./dispatched-stream";
import { ErrorType, TypedError } from "./errors";
import type { IdempotencyClaim, IdempotentCalls } from "./idempotent-calls";
import type { ActionMiddleware } from "./middleware";
import { admit, MiddlewareChain } from "./middleware-chain";
import { outputMismatch } from "./output-check";
import { assertParamsBounds } from "./params-bounds";
import type { RegisteredAction, ActionRegistry } from "./registry";
import { RequestLog } from "./request-log";
import { ResponseCodec } from "./response-codec";
import { isAsyncIterable } from "./streaming";
import { isTracing } from "./tracing";
import { parseParams } from "./validation";

export type { ActionResult, Answer } from "./action-result";
export type { ActionRefusal, DispatcherOptions, DispatchOptions } from "./dispatch-options";

/**
 * A controller that aborts when `signal` does. Linked by hand rather than with AbortSignal.any,
 * which costs more than the rest of the dispatch (docs/performance.md). The link outlives the
 * call: a streamed response still stops when the client leaves.
 */
function linkedController(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  return controller;
}

/** Required only with metrics on, which load the semantic conventions. */
function callMetrics(meter: Meter, plans: ActionPlans): CallMetrics {
  const { CallMetrics } = require("./call-metrics") as typeof import("./call-metrics");
  return new CallMetrics(meter, plans);
}

function notFound(actionName: string): TypedError {
  return new TypedError({
    message: `Unknown action "${actionName}"`,
    type: ErrorType.CONNECTION_ACTION_NOT_FOUND,
    key: "action",
    value: actionName,
  });
}

/**
 * The one pipeline every transport calls, and its one way out: bound and validate → runBefore →
 * run → runAfter → encode → log. A transport only frames the answer on its wire.
 */
export class Dispatcher {
  /** The app's global middleware, in the order they run around every action. */
  readonly globalMiddleware: readonly ActionMiddleware[];
  /** How answers are encoded and errors shown; transports use it for the refusals they make themselves. */
  readonly codec: ResponseCodec;
  private readonly plans: ActionPlans;
  private readonly inFlight: ConcurrentCalls | undefined;
  private readonly failures: CallFailures;
  private readonly chain: MiddlewareChain;
  private readonly requestLog: RequestLog;
  private readonly refusals: readonly ActionRefusal[];

  /** Where calls made with an idempotency key are recorded, for what else keeps that promise (TaskService.enqueue). */
  get idempotency(): IdempotentCalls | undefined {
    return this.options.idempotency;
  }

  constructor(
    private readonly registry: ActionRegistry,
    private readonly options: DispatcherOptions,
  ) {
    this.globalMiddleware = options.globalMiddleware ?? [];
    this.refusals = options.refusals ?? [];
    this.codec = options.codec ?? new ResponseCodec(options.production);
    this.plans = new ActionPlans(this.globalMiddleware);
    const limits = options.concurrentCalls;
    this.inFlight = limits && ConcurrentCalls.anyBound(limits) ? new ConcurrentCalls(limits) : undefined;
    this.failures = new CallFailures(this.codec, options.logger, options.production, options.failureBehind);
    this.chain = new MiddlewareChain(this.failures, options.logger);
    this.requestLog = new RequestLog(this.plans, {
      logger: options.logger,
      actionTimeout: options.actionTimeout,
      checkDeclared: options.checkOutputs ?? false,
      ...(options.logParams ? { logParams: options.logParams } : {}),
      ...(options.meter ? { calls: callMetrics(options.meter, this.plans) } : {}),
    });
  }

  run(actionName: string, rawParams: unknown, connection: Connection, dispatchOptions: DispatchOptions = {}): Promise<ActionResult> {
    const key = dispatchOptions.idempotencyKey;
    const idempotency = this.options.idempotency;
    if (key === undefined || !idempotency) return this.runOnce(actionName, rawParams, connection, dispatchOptions);
    return this.runWithKey(idempotency, key, actionName, rawParams, connection, dispatchOptions);
  }

  /** A call with an idempotency key: the first runs and settles its key, a retry is replayed or refused. */
  private async runWithKey(
    idempotency: IdempotentCalls,
    key: string,
    actionName: string,
    rawParams: unknown,
    connection: Connection,
    dispatchOptions: DispatchOptions,
  ): Promise<ActionResult> {
    const registered = this.callable(actionName, connection.type);
    if (!registered) return this.runOnce(actionName, rawParams, connection, dispatchOptions);
    let claim: IdempotencyClaim;
    try {
      const holdMs = (registered.action.timeout ?? this.options.actionTimeout) || idempotency.ttlMs;
      claim = await idempotency.claim(registered.name, key, rawParams, connection, holdMs);
    } catch (thrown) {
      // The store is out of reach: refused with its 503, not run without the promise the key asked for.
      return this.runOnce(actionName, rawParams, connection, dispatchOptions, this.failures.normalize(thrown));
    }
    if (claim.kind === "refused") return this.runOnce(actionName, rawParams, connection, dispatchOptions, claim.error);
    if (claim.kind === "replay") return this.replayed(registered, rawParams, connection, dispatchOptions, claim);
    const result = await this.runOnce(actionName, rawParams, connection, dispatchOptions);
    await claim.settle(result);
    return result;
  }

  /** The first call's answer again, logged as a call of its own that ran nothing. */
  private replayed(
    registered: RegisteredAction,
    rawParams: unknown,
    connection: Connection,
    dispatchOptions: DispatchOptions,
    replay: Extract<IdempotencyClaim, { kind: "replay" }>,
  ): ActionResult {
    const { status, answer, response, error } = replay;
    const result: ActionResult = { actionName: registered.name, status, durationMs: 0, answer, replayed: true };
    if (error) result.error = error;
    else result.response = response;
    this.requestLog.write(registered, rawParams, false, connection, result, { ...dispatchOptions.logFields, replayed: "true" });
    return result;
  }

  /** One call through the pipeline; `refused` answers it with that error without running it. */
  private async runOnce(
    actionName: string,
    rawParams: unknown,
    connection: Connection,
    dispatchOptions: DispatchOptions,
    refused?: TypedError,
  ): Promise<ActionResult> {
    const started = performance.now();
    const registered = this.callable(actionName, connection.type);
    const call: CallOutcome = {
      params: (rawParams ?? {}) as ParamsRecord,
      validated: undefined,
      response: undefined,
      error: undefined,
      logFields: dispatchOptions.logFields,
    };
    if (dispatchOptions.runInstead) call.runInstead = dispatchOptions.runInstead;
    if (isTracing()) call.span = new CallSpan(actionName, connection.type);

    if (!registered) {
      call.error = notFound(actionName);
    } else if (refused) {
      call.error = refused;
    } else {
      call.error = this.inFlight?.enter(connection);
      if (!call.error) {
        const controller = dispatchOptions.controller ?? linkedController(dispatchOptions.signal);
        try {
          const span = call.span;
          await (span
            ? span.within(() => this.runWithinDeadline(registered, rawParams, call, connection, controller))
            : this.runWithinDeadline(registered, rawParams, call, connection, controller));
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

    const answer = this.answerOf(actionName, call, dispatchOptions.frames);
    const result: ActionResult = call.error
      ? { actionName, status: call.error.status, durationMs: performance.now() - started, error: call.error, answer }
      : { actionName, status: 200, durationMs: performance.now() - started, response: call.response, answer };
    this.requestLog.write(registered, call.validated ?? rawParams, call.validated !== undefined, connection, result, call.logFields);
    call.span?.end(result.status, result.error);
    return result;
  }

  /**
   * The registered action `actionName` names, if a `connectionType` transport may call it; throws
   * the unknown action's error otherwise, as a call would be answered. For what checks a call
   * before it is made (a task being queued).
   */
  find(actionName: string, connectionType: CONNECTION_TYPE): RegisteredAction {
    const registered = this.callable(actionName, connectionType);
    if (!registered) throw notFound(actionName);
    return registered;
  }

  /** The params a call of `registered` would run with, bounded and validated as a call's are; throws the caller's error. */
  async validate(registered: RegisteredAction, rawParams: unknown): Promise<ParamsRecord> {
    assertParamsBounds(rawParams, this.options.paramsBounds);
    return parseParams(registered.action.inputs, rawParams);
  }

  /**
   * The action a call names, if its transport may call it. One it may not is not found, like a
   * name no action has: the answer and the log line tell the caller nothing of it.
   */
  private callable(actionName: string, connectionType: CONNECTION_TYPE): RegisteredAction | undefined {
    const registered = this.registry.get(actionName);
    return registered && allowsTransport(registered.action, connectionType) ? registered : undefined;
  }

  private refuseIfUnservable(registered: RegisteredAction): void {
    for (const refusal of this.refusals) {
      const refused = refusal(registered);
      if (refused) throw refused;
    }
  }

  /** The call's answer; a response JSON cannot carry becomes the call's error here, before its log line. */
  private answerOf(actionName: string, call: CallOutcome, frames: ((response: unknown) => boolean) | undefined): Answer {
    if (!call.error) {
      if (frames?.(call.response)) return { kind: "framed", value: call.response };
      try {
        return { kind: "json", text: this.codec.encode(actionName, call.response) };
      } catch (thrown) {
        call.error = thrown as TypedError;
      }
    }
    return { kind: "error", error: call.error!, body: this.codec.errorBody(call.error) };
  }

  /**
   * The whole chain within the action's one deadline: when it passes, the call is answered with the
   * timeout at once and its signal aborts, while the step under way finishes by itself and the
   * chain then only unwinds (see MiddlewareChain).
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
    const plan = this.plans.of(registered);
    try {
      if (this.refusals.length > 0) this.refuseIfUnservable(registered);
      assertParamsBounds(rawParams, this.options.paramsBounds);
      if (plan.admission.length > 0) await admit(plan.admission, call.params, connection);
      const parsed = parseParams(registered.action.inputs, rawParams);
      call.params = parsed instanceof Promise ? await parsed : parsed;
      call.validated = call.params;
    } catch (thrown) {
      this.failures.record(call, thrown, registered.name, connection);
    }
    if (!call.error) await this.chain.run(registered, plan, call, connection, signal);
    const { outputs } = registered.action;
    if (outputs && this.options.checkOutputs && !call.error && !call.runInstead && !isAsyncIterable(call.response)) {
      const found = outputMismatch(registered.name, outputs, call.response);
      call.error = found instanceof Promise ? await found : found;
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
    const plan = this.plans.of(registered);
    const ended = (failed: boolean, thrown: unknown, closed: Promise<void>): Promise<TypedError | undefined> => {
      if (failed) call.error = this.failures.normalize(thrown);
      if (call.error?.type === ErrorType.CONNECTION_ACTION_TIMEOUT) {
        answeredAtDeadline = true;
        this.logStream(registered, call, connection, started);
      }
      const unwind = () => this.chain.run(registered, plan, call, connection, controller.signal, suspended);
      const chain = closed.then(() => (call.span ? call.span.within(unwind) : unwind()));
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
    };
    const outputs = this.options.checkOutputs ? registered.action.outputs : undefined;
    const stream = new DispatchedStream(call.response as AsyncIterable<unknown>, registered.name, controller.signal, ended, this.codec, outputs);
    const durationMs = performance.now() - started;
    return { actionName: registered.name, status: 200, durationMs, response: stream, answer: { kind: "stream", stream } };
  }

  private logStream(registered: RegisteredAction, call: CallOutcome, connection: Connection, started: number): void {
    const { error } = call;
    const durationMs = performance.now() - started;
    const status = error ? error.status : 200;
    this.requestLog.write(registered, call.validated, true, connection, { actionName: registered.name, status, durationMs, error }, call.logFields);
    call.span?.end(status, error);
  }
}
