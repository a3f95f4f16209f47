import { isLevelOn, type Logger } from "./logger";

/** One request that no action call logs (a 404, a refusal, a static file, a mount's answer). */
export interface AccessEntry {
  method: string | undefined;
  /** The path alone: a query string may carry secrets (tokens, codes). */
  path: string;
  status: number;
  durationMs: number;
  requestId: string | undefined;
  /** Present, and true, when the client left before the answer was whole. */
  aborted?: true;
}

/**
 * Paths a load balancer or a scraper asks for every few seconds: their lines go at debug, so that
 * probing fills no log at info.
 */
const PROBE_PATHS: ReadonlySet<string> = new Set(["/livez", "/readyz", "/metrics"]);

/** The level of the access line of a request for `path`. */
export function accessLevelOf(path: string): "debug" | "info" {
  return PROBE_PATHS.has(path) ? "debug" : "info";
}

/** Whether an access line for `path` would be written at the logger's level: when not, the request need not be watched. */
export function isAccessLogged(logger: Logger, path: string): boolean {
  return isLevelOn(logger, accessLevelOf(path));
}

/** The access line of a request that is not an action call: the dispatcher's request log is an action call's line. */
export function writeAccessLine(logger: Logger, entry: AccessEntry): void {
  const line = { ...entry, durationMs: Math.round(entry.durationMs * 1000) / 1000 };
  logger[accessLevelOf(entry.path)](line, "request");
}

/**
 * Marks a response whose request became an action call. A property rather than a WeakSet entry,
 * which costs each call an insertion into a table the collector must walk.
 */
const ACTION_CALL = Symbol("herald.actionCall");
type Marked = { [ACTION_CALL]?: true };

/** Marks a response as an action call's (HTTP, or an MCP message that runs an action): it gets no access line. */
export function markActionCall(response: object): void {
  (response as Marked)[ACTION_CALL] = true;
}

export function isActionCall(response: object): boolean {
  return (response as Marked)[ACTION_CALL] === true;
}

/** The path of a request URL, without its query string or fragment. */
export function pathOfUrl(url: string | undefined): string {
  const text = url ?? "/";
  const end = text.search(/[?#]/);
  return end === -1 ? text : text.slice(0, end);
}
