/**
 * The HTTP status of each error type, as the server maps them (`ErrorStatusCodes`). An error over
 * WebSocket carries only its type, yet a HeraldClientError has the status an HTTP call would
 * have had, so that `errorOf` narrows it the same way. A copy: the client imports nothing of the
 * server; test/client/error-statuses.test.ts keeps the two equal.
 */
export const ERROR_STATUSES: Readonly<Record<string, number>> = Object.freeze({
  SERVER_INITIALIZATION: 500,
  SERVER_START: 500,
  SERVER_STOP: 500,
  CONFIG_ERROR: 500,
  CONNECTION_SERVER_ERROR: 500,
  CONNECTION_ACTION_RUN: 500,
  CONNECTION_TASK_DEFINITION: 500,
  CONNECTION_SESSION_NOT_FOUND: 401,
  CONNECTION_NOT_AUTHENTICATED: 401,
  CONNECTION_FORBIDDEN: 403,
  CONNECTION_CHANNEL_AUTHORIZATION: 403,
  CONNECTION_ACTION_NOT_FOUND: 404,
  CONNECTION_NOT_FOUND: 404,
  CONNECTION_METHOD_NOT_ALLOWED: 405,
  CONNECTION_ACTION_TIMEOUT: 504,
  CONNECTION_CLIENT_GONE: 499,
  CONNECTION_INPUT_REQUIRED: 422,
  CONNECTION_CONFLICT: 409,
  CONNECTION_PAYLOAD_TOO_LARGE: 413,
  CONNECTION_UNSUPPORTED_MEDIA_TYPE: 415,
  CONNECTION_ACTION_PARAM_FORMATTING: 400,
  CONNECTION_CHANNEL_VALIDATION: 400,
  CONNECTION_ACTION_PARAM_REQUIRED: 422,
  CONNECTION_ACTION_PARAM_VALIDATION: 422,
  CONNECTION_ACTION_OUTPUT_VALIDATION: 500,
  CONNECTION_RATE_LIMITED: 429,
  CONNECTION_SERVICE_UNAVAILABLE: 503,
  CONNECTION_SERVICE_BUSY: 503,
});

/** The HTTP status of an error type; 500 for a type this client does not know, as the server does. */
export function statusOfErrorType(type: string): number {
  return Object.hasOwn(ERROR_STATUSES, type) ? ERROR_STATUSES[type]! : 500;
}
