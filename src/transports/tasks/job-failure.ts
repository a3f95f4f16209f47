import { ErrorType } from "../../core/errors";
import type { JobError } from "./driver";

/** How a worker reports a failed attempt: the error body to keep, and whether a retry can help. */
export class JobFailure extends Error {
  constructor(
    readonly body: JobError,
    /** False for errors a retry cannot fix, such as params that fail validation. */
    readonly retryable: boolean,
  ) {
    super(body.message);
    this.name = "JobFailure";
    if (body.stack) this.stack = body.stack;
  }
}

/** Any rejection of a handler as a JobFailure, so drivers keep one error shape. */
export function asJobFailure(thrown: unknown): JobFailure {
  if (thrown instanceof JobFailure) return thrown;
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new JobFailure(
    { message, type: ErrorType.CONNECTION_ACTION_RUN, timestamp: new Date().toISOString() },
    true,
  );
}
