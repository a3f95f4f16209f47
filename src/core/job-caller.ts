import type { Connection, ConnectionAuth } from "./connection";

/**
 * Who a job runs for: the verified access token and the session of the call that queued it (an
 * MCP task's creation), so that the job's middleware and `run` see the caller that call saw. It
 * is kept with the job and never shown by inspection (`herald tasks job`, `TaskService.getJob`).
 */
export interface JobCaller {
  /** The token as it was verified when the job was queued. */
  auth?: ConnectionAuth;
  /** The caller's session, opened again when the job runs: one ended meanwhile (a sign-out) leaves the job's caller signed out. */
  sessionId?: string;
}

/** The caller a job queued by `connection`'s call runs for; undefined for one with neither token nor session. */
export function jobCallerOf(connection: Connection): JobCaller | undefined {
  const sessionId = connection.session?.id;
  if (!connection.auth && sessionId === undefined) return undefined;
  return { ...(connection.auth ? { auth: connection.auth } : {}), ...(sessionId !== undefined ? { sessionId } : {}) };
}
