import { ErrorType } from "./errors";
import type { ActionMiddleware } from "./middleware";

/** The refusals of a caller who is not signed in, as middleware declare them. */
const NOT_SIGNED_IN: readonly ErrorType[] = [ErrorType.CONNECTION_NOT_AUTHENTICATED, ErrorType.CONNECTION_SESSION_NOT_FOUND];

/**
 * Whether a chain of middleware declares that it refuses a caller who is not signed in: an action
 * behind it is of no use to a transport whose callers cannot sign in (MCP over stdio).
 */
export function needsSignedInCaller(middleware: readonly ActionMiddleware[]): boolean {
  return middleware.some((step) => NOT_SIGNED_IN.some((type) => step.errors?.[type] !== undefined && step.errors[type] !== false));
}
