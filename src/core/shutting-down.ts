import { ErrorType, TypedError } from "./errors";

/** What every transport answers a call it takes no more, or aborts one with, once the server is stopping: 503, retry elsewhere. */
export function shuttingDown(): TypedError {
  return new TypedError({ message: "The server is shutting down", type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
}
