import type { Connection } from "./connection";
import type { CallSpan } from "./call-span";
import type { CallLogFields } from "./call-ids";
import type { TypedError } from "./errors";

export type ParamsRecord = Record<string, unknown>;

/** What one call has come to so far: the chain updates it in place rather than returning a new object per step. */
export interface CallOutcome {
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
  /** The transport's ids of the call for its request log line (DispatchOptions.logFields). */
  logFields: CallLogFields | undefined;
  /** Set when run returned a stream: where the chain stopped, to unwind once the stream ends. */
  suspended?: SuspendedChain;
  /** The call's span, when tracing is on; ended with the call's log line. */
  span?: CallSpan;
  /** What runs in place of the action's run (DispatchOptions.runInstead). */
  runInstead?: RunInstead;
}

/** A call's run made elsewhere: given the validated params, it answers the call's response. */
export type RunInstead = (params: ParamsRecord, connection: Connection, signal: AbortSignal) => Promise<unknown>;

/** The middleware a streaming call entered, and what they left for their runAfter. */
export interface SuspendedChain {
  entered: number;
  callStates: unknown[] | undefined;
}
