import { ErrorType, TypedError, type Connection, type ConnectionSession } from "herald";
import type { User } from "../entities/user";

/** The session key holding the signed-in user's id. */
export const SESSION_USER_ID = "userId";

/** What an action guarded by `RequireSignIn` receives besides its inputs. */
export type SignedIn<P> = P & { currentUser: User };

export function notSignedIn(): TypedError {
  return new TypedError({ message: "Sign in first", type: ErrorType.CONNECTION_NOT_AUTHENTICATED });
}

/**
 * The connection's session. Only HTTP and WebSocket connections carry one (a cookie names it);
 * the CLI, tasks and MCP have none (an MCP call with an OAuth token carries the session its
 * sign-in page filled), so signing in there is refused rather than silently forgotten.
 */
export function sessionOf(connection: Connection | undefined): ConnectionSession {
  if (!connection?.session) {
    throw new TypedError({
      message: "Signing in needs a session cookie: use HTTP or WebSocket",
      type: ErrorType.CONNECTION_SESSION_NOT_FOUND,
    });
  }
  return connection.session;
}
