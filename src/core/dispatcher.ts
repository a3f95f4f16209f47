import type { ActionDefinition } from "./action";
import type { Connection } from "./connection";
import { toTypedError } from "./error-body";
import { ErrorType, isTypedError, TypedError } from "./errors";
import type { Logger } from "./logger";
import type { ActionMiddleware } from "./middleware";
import type { ActionRegistry, RegisteredAction } from "./registry";
import { redactSecrets } from "./secret";
import { assertParamsDepth } from "./params-depth";
import { validateParams } from "./validation";

export interface ActionResult {
  actionName: string;
  response?: unknown;
  error?: TypedError;
  /** The HTTP-equivalent status: 200, or the error's status from ErrorStatusCodes. */
  status: number;
  durationMs: number;
}

export interface DispatcherOptions {
  logger: Logger;
  actionTimeout: number;
  production: boolean;
  globalMiddleware?: readonly ActionMiddleware[];
  /** Names the backing service whose outage an error shows (see HealthRegistry.outageBehind). */
  outageBehind?: (error: unknown) => string | undefined;
}

export interface DispatchOptions {
  /**
   * Aborts the action's signal from outside, e.g. when an HTTP client disconnects. One per call:
   * the action's signal listens to it for as long as it lives.
   */
  signal?: AbortSignal;
  /**
   * The call's own controller, made by the transport for this one call: the dispatcher passes its
   * signal to the action and aborts it on timeout, instead of making a second controller linked to
   * `signal`. Takes precedence over `signal`.
   */
  controller?: AbortController;
}

type ParamsRecord = Record<string, unknown>;

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

/** The one pipeline every transport calls: validate → runBefore → run → runAfter. */
export class Dispatcher {
  private readonly globalMiddleware: readonly ActionMiddleware[];
  private readonly chains = new WeakMap<RegisteredAction, readonly ActionMiddleware[]>();

  constructor(
    private readonly registry: ActionRegistry,
    private readonly options: DispatcherOptions,
  ) {
    this.globalMiddleware = options.globalMiddleware ?? [];
  }

  async run(
    actionName: string,
    rawParams: unknown,
    connection: Connection,
    dispatchOptions: DispatchOptions = {},
  ): Promise<ActionResult> {
    const started = performance.now();
    const registered = this.registry.get(actionName);
    let params: ParamsRecord = (rawParams ?? {}) as ParamsRecord;
    let response: unknown;
    let error: TypedError | undefined;

    if (!registered) {
      error = new TypedError({
        message: `Unknown action "${actionName}"`,
        type: ErrorType.CONNECTION_ACTION_NOT_FOUND,
        key: "action",
        value: actionName,
      });
    } else {
      try {
        assertParamsDepth(rawParams);
        params = await validateParams(registered.action.inputs, rawParams);
      } catch (thrown) {
        error = this.normalize(thrown);
      }
      if (!error) ({ params, response, error } = await this.runChain(registered, params, connection, dispatchOptions));
    }

    const result: ActionResult = {
      actionName,
      status: error ? error.status : 200,
      durationMs: performance.now() - started,
      ...(error ? { error } : { response }),
    };
    this.log(registered, rawParams, connection, result);
    return result;
  }

  private async runChain(
    registered: RegisteredAction,
    initialParams: ParamsRecord,
    connection: Connection,
    dispatchOptions: DispatchOptions,
  ): Promise<{ params: ParamsRecord; response: unknown; error: TypedError | undefined }> {
    let params = initialParams;
    let response: unknown;
    let error: TypedError | undefined;
    const entered: ActionMiddleware[] = [];

    for (const middleware of this.chainOf(registered)) {
      entered.push(middleware);
      if (!middleware.runBefore) continue;
      try {
        const outcome = await middleware.runBefore(params, connection);
        if (outcome?.updatedParams !== undefined) params = outcome.updatedParams as ParamsRecord;
      } catch (thrown) {
        error = this.normalize(thrown);
        break;
      }
    }

    if (!error) {
      try {
        response = await this.runWithTimeout(registered.action, params, connection, dispatchOptions);
      } catch (thrown) {
        error = this.normalize(thrown);
      }
    }

    for (const middleware of entered.reverse()) {
      if (!middleware.runAfter) continue;
      try {
        const outcome = await middleware.runAfter(params, connection, error, { actionName: registered.name, response });
        if (!error && outcome && "updatedResponse" in outcome) response = outcome.updatedResponse;
      } catch (thrown) {
        if (error) {
          this.options.logger.error({ action: registered.name, err: thrown }, "runAfter failed after the call had already failed");
        }
        error ??= this.normalize(thrown);
      }
    }
    return { params, response, error };
  }

  /** Global middleware then the action's own, built once per action rather than on every call. */
  private chainOf(registered: RegisteredAction): readonly ActionMiddleware[] {
    let chain = this.chains.get(registered);
    if (!chain) {
      chain = [...this.globalMiddleware, ...registered.middleware];
      this.chains.set(registered, chain);
    }
    return chain;
  }

  private runWithTimeout(
    action: ActionDefinition,
    params: ParamsRecord,
    connection: Connection,
    { controller: ownController, signal: externalSignal }: DispatchOptions,
  ): Promise<unknown> {
    const timeoutMs = action.timeout ?? this.options.actionTimeout;
    const controller = ownController ?? linkedController(externalSignal);
    const running = Promise.resolve().then(() => action.run(params, connection, controller.signal));
    if (!timeoutMs) return running;

    let timer: NodeJS.Timeout | undefined;
    let expired = false;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = true;
        const timeoutError = new TypedError({
          message: `Action "${action.name}" timed out after ${timeoutMs} ms`,
          type: ErrorType.CONNECTION_ACTION_TIMEOUT,
        });
        controller.abort(timeoutError);
        reject(timeoutError);
      }, timeoutMs);
    });
    // A run that settles after its timeout has already been answered; only its log line remains.
    running.catch((lateError: unknown) => {
      if (expired) {
        this.options.logger.debug({ action: action.name, err: lateError }, "action rejected after its timeout");
      }
    });
    return Promise.race([running, timedOut]).finally(() => clearTimeout(timer));
  }

  private normalize(thrown: unknown): TypedError {
    const service = isTypedError(thrown) ? undefined : this.options.outageBehind?.(thrown);
    if (service === undefined) return toTypedError(thrown, this.options.production);
    const detail = thrown instanceof Error ? thrown.message : String(thrown);
    return new TypedError({
      message: this.options.production ? `The ${service} is unavailable` : `The ${service} is unavailable: ${detail}`,
      type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
      cause: thrown,
    });
  }

  private log(
    registered: RegisteredAction | undefined,
    rawParams: unknown,
    connection: Connection,
    result: ActionResult,
  ): void {
    const { logger } = this.options;
    const entry: Record<string, unknown> = {
      action: result.actionName,
      connection: connection.type,
      connectionId: connection.id,
      durationMs: Math.round(result.durationMs * 1000) / 1000,
      status: result.status,
      params: redactSecrets(registered?.action.inputs, rawParams),
    };
    if (connection.requestId) entry.requestId = connection.requestId;
    if (result.error) {
      entry.error = { type: result.error.type, message: result.error.message };
      if (result.status >= 500) entry.err = result.error.cause ?? result.error;
    }
    if (result.status >= 500) logger.error(entry, "action failed");
    else logger.info(entry, "action");
  }
}
