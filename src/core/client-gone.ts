import { ErrorType, isTypedError, TypedError } from "./errors";

/**
 * The reason a transport aborts a call with when its caller has left (an HTTP client that
 * disconnected, a closed WebSocket). A call whose signal carries it ends as this, whatever `run`
 * did: no one receives its answer, and a failure caused by the abort is not the server's.
 */
export function clientGone(message: string): TypedError {
  return new TypedError({ message, type: ErrorType.CONNECTION_CLIENT_GONE });
}

export function isClientGone(reason: unknown): reason is TypedError {
  return isTypedError(reason) && reason.type === ErrorType.CONNECTION_CLIENT_GONE;
}
