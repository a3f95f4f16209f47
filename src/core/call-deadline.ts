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
 * rather than Promise.race over a second promise for the timer.
 */
export function withinDeadline(chain: Promise<void>, timeoutMs: number, expire: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      expire();
      resolve();
    }, timeoutMs);
    chain.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (thrown: unknown) => {
        clearTimeout(timer);
        // After the deadline the call has been answered; the chain's own end is the caller's to watch.
        if (!expired) reject(thrown);
      },
    );
  });
}
