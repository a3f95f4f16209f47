import { callIds } from "./call-ids";
import type { CallOutcome } from "./call-outcome";
import type { Connection } from "./connection";
import { ErrorType, isTypedError, TypedError } from "./errors";
import type { ServiceFailure } from "./health";
import type { Logger } from "./logger";
import type { ResponseCodec } from "./response-codec";

/** Whole seconds a caller is told to wait when a backing service is busy rather than down. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** What a call's steps throw, as the TypedError its caller gets. */
export class CallFailures {
  constructor(
    private readonly codec: ResponseCodec,
    private readonly logger: Logger,
    private readonly production: boolean,
    /** Names the backing service, down or busy, that an error shows (see HealthRegistry.failureBehind). */
    private readonly failureBehind?: (error: unknown) => ServiceFailure | undefined,
  ) {}

  /**
   * A foreign error as the caller may see it; one a backing service's failure caused names that
   * service: busy (503 with `value.retryAfter`, which HTTP sends as Retry-After) or down.
   */
  normalize(thrown: unknown): TypedError {
    const failure = isTypedError(thrown) ? undefined : this.failureBehind?.(thrown);
    if (failure === undefined) return this.codec.toError(thrown);
    const { service, busy } = failure;
    if (busy) {
      return new TypedError({
        message: `The ${service} is busy, retry shortly`,
        type: ErrorType.CONNECTION_SERVICE_BUSY,
        value: { retryAfter: BUSY_RETRY_AFTER_SECONDS },
        cause: thrown,
      });
    }
    const detail = thrown instanceof Error ? thrown.message : String(thrown);
    return new TypedError({
      message: this.production ? `The ${service} is unavailable` : `The ${service} is unavailable: ${detail}`,
      type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
      cause: thrown,
    });
  }

  /** Records what a step threw; once the deadline has answered the call, its timeout stands and the throw is only logged. */
  record(call: CallOutcome, thrown: unknown, actionName: string, connection: Connection): void {
    if (call.overrun) this.logger.debug({ action: actionName, ...callIds(connection, call.logFields), err: thrown }, "a step threw after the call's deadline");
    else call.error = this.normalize(thrown);
  }
}
