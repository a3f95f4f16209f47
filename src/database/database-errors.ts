import type { QueryFailedError } from "typeorm";

/**
 * Whether `error` is TypeORM's QueryFailedError. TypeORM is loaded on the first error asked about,
 * not with Herald's index: an app without a database never loads it.
 */
function isQueryFailure(error: unknown): error is QueryFailedError {
  if (!(error instanceof Error)) return false;
  const typeorm = require("typeorm") as typeof import("typeorm");
  return error instanceof typeorm.QueryFailedError;
}

/** PostgreSQL's SQLSTATE for a unique constraint violation; PGlite reports the same code. */
const UNIQUE_VIOLATION = "23505";

export function isUniqueViolation(error: unknown): boolean {
  return isQueryFailure(error) && (error.driverError as { code?: string } | undefined)?.code === UNIQUE_VIOLATION;
}

/** Socket-level failures: the server refused, dropped or never answered the connection. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/** SQLSTATEs of a server that is going away: class 08 (connection exception), shutdown, starting up. */
const UNAVAILABLE_STATES = /^(08...|57P0[123])$/;

/** pg's own messages for a connection that died or never came, which carry no code. */
const LOST_CONNECTION = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * Whether an error means the database cannot be reached at all (rather than a query that is
 * wrong): the database initializer tells the server, which answers such a failure with 503.
 */
export function isConnectionFailure(error: unknown): boolean {
  const failure = (isQueryFailure(error) ? error.driverError : error) as { code?: unknown; message?: unknown } | undefined;
  if (!failure || typeof failure !== "object") return false;
  const code = typeof failure.code === "string" ? failure.code : "";
  return NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code) || (typeof failure.message === "string" && LOST_CONNECTION.test(failure.message));
}
