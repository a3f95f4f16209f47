import type { Meter } from "@opentelemetry/api";
import type { CallLogFields } from "./call-ids";
import type { RunInstead } from "./call-outcome";
import type { ConcurrentCallLimits } from "./concurrent-calls";
import type { TypedError } from "./errors";
import type { ServiceFailure } from "./health";
import type { IdempotentCalls } from "./idempotent-calls";
import type { LogParams } from "./log-params";
import type { Logger } from "./logger";
import type { ActionMiddleware } from "./middleware";
import type { ParamsBounds } from "./params-bounds";
import type { RegisteredAction } from "./registry";
import type { ResponseCodec } from "./response-codec";

/**
 * Why this process cannot run an action at all (what it needs is out of this process's reach),
 * asked before each of its calls, before its params are read; undefined when it can.
 */
export type ActionRefusal = (registered: RegisteredAction) => TypedError | undefined;

export interface DispatcherOptions {
  logger: Logger;
  actionTimeout: number;
  /** What params may hold before they are validated; the defaults when absent. */
  paramsBounds?: ParamsBounds;
  production: boolean;
  /** The server's codec; one for `production` when absent. */
  codec?: ResponseCodec;
  globalMiddleware?: readonly ActionMiddleware[];
  /** What the request log says of params (LOG_PARAMS); values by default. */
  logParams?: LogParams;
  /** Names the backing service, down or busy, that an error shows (see HealthRegistry.failureBehind). */
  failureBehind?: (error: unknown) => ServiceFailure | undefined;
  /** Bounds on calls in flight per connection and per remote address; none when absent. */
  concurrentCalls?: ConcurrentCallLimits;
  /** Whether a response is checked against its action's `outputs` (`CHECK_OUTPUTS`); not when absent. */
  checkOutputs?: boolean;
  /** Records each call's duration (`rpc.server.call.duration`); nothing is recorded when absent. */
  meter?: Meter;
  /** Asked before each call, in order; the list may grow after the dispatcher is built (see HeraldServer.actionRefusals). */
  refusals?: readonly ActionRefusal[];
  /** Where calls made with an idempotency key are recorded; without it, a key is not read. */
  idempotency?: IdempotentCalls;
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
  /**
   * Which responses the transport sends as they are, on its own wire (an HTTP `Response`, MCP
   * content, a resource's bytes): their answer is `framed`. Every other response is encoded as JSON.
   */
  frames?: (response: unknown) => boolean;
  /** What the call's request log line says beside its connection's ids: the transport's own ids of the call (a message's, a job's). */
  logFields?: CallLogFields;
  /**
   * The caller's idempotency key (HTTP's `Idempotency-Key`, a WebSocket message's
   * `idempotencyKey`, the CLI's `--idempotency-key`): a retry with it gets the first call's answer
   * without running again (see IdempotentCalls).
   */
  idempotencyKey?: string;
  /**
   * Runs in place of the action's run, after its validation and runBefore middleware and before
   * its runAfters: a call whose run happens elsewhere, such as an MCP task, whose call queues the
   * action as a job. Its answer is the call's response, never checked against `outputs`.
   */
  runInstead?: RunInstead;
}
