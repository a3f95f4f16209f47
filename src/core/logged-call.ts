import type { TypedError } from "./errors";

/** One call as its log line and its metrics see it: what the caller got. */
export interface LoggedCall {
  actionName: string;
  status: number;
  durationMs: number;
  error?: TypedError | undefined;
}
