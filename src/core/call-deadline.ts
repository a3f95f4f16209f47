import { deadlineQueue } from "./deadline-queue";
import { ErrorType, TypedError } from "./errors";

/** What a call is answered with once its deadline has passed. */
export function timeoutError(actionName: string, timeoutMs: number): TypedError {
  return new TypedError({
    message: `Action "${actionName}" timed out after ${timeoutMs} ms`,
    type: ErrorType.CONNECTION_ACTION_TIMEOUT,
  });
}

/**
 * Waits for `chain` for at most `timeoutMs`: settles when it does, or at the deadline once `expire`
 * has run, leaving the chain to finish by itself. One promise settled by whichever comes first,
 * rather than Promise.race over a second promise for the timer; the deadline waits in the queue
 * of its timeout (see DeadlineQueue) rather than under a timer of its own.
 */
export function withinDeadline(chain: Promise<void>, timeoutMs: number, expire: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let expired = false;
    const cancel = deadlineQueue(timeoutMs).add(() => {
      expired = true;
      expire();
      resolve();
    });
    chain.then(
      () => {
        cancel();
        resolve();
      },
      (thrown: unknown) => {
        cancel();
        // After the deadline the call has been answered; the chain's own end is the caller's to watch.
        if (!expired) reject(thrown);
      },
    );
  });
}
