export enum ErrorType {
  SERVER_INITIALIZATION = "SERVER_INITIALIZATION",
  SERVER_START = "SERVER_START",
  SERVER_STOP = "SERVER_STOP",
  CONFIG_ERROR = "CONFIG_ERROR",
  CONNECTION_SERVER_ERROR = "CONNECTION_SERVER_ERROR",
  CONNECTION_ACTION_RUN = "CONNECTION_ACTION_RUN",
  CONNECTION_TASK_DEFINITION = "CONNECTION_TASK_DEFINITION",
  CONNECTION_SESSION_NOT_FOUND = "CONNECTION_SESSION_NOT_FOUND",
  CONNECTION_NOT_AUTHENTICATED = "CONNECTION_NOT_AUTHENTICATED",
  CONNECTION_FORBIDDEN = "CONNECTION_FORBIDDEN",
  CONNECTION_CHANNEL_AUTHORIZATION = "CONNECTION_CHANNEL_AUTHORIZATION",
  CONNECTION_ACTION_NOT_FOUND = "CONNECTION_ACTION_NOT_FOUND",
  CONNECTION_NOT_FOUND = "CONNECTION_NOT_FOUND",
  CONNECTION_METHOD_NOT_ALLOWED = "CONNECTION_METHOD_NOT_ALLOWED",
  CONNECTION_ACTION_TIMEOUT = "CONNECTION_ACTION_TIMEOUT",
  CONNECTION_CLIENT_GONE = "CONNECTION_CLIENT_GONE",
  CONNECTION_INPUT_REQUIRED = "CONNECTION_INPUT_REQUIRED",
  CONNECTION_CONFLICT = "CONNECTION_CONFLICT",
  CONNECTION_PAYLOAD_TOO_LARGE = "CONNECTION_PAYLOAD_TOO_LARGE",
  CONNECTION_UNSUPPORTED_MEDIA_TYPE = "CONNECTION_UNSUPPORTED_MEDIA_TYPE",
  CONNECTION_ACTION_PARAM_FORMATTING = "CONNECTION_ACTION_PARAM_FORMATTING",
  CONNECTION_CHANNEL_VALIDATION = "CONNECTION_CHANNEL_VALIDATION",
  CONNECTION_ACTION_PARAM_REQUIRED = "CONNECTION_ACTION_PARAM_REQUIRED",
  CONNECTION_ACTION_PARAM_VALIDATION = "CONNECTION_ACTION_PARAM_VALIDATION",
  CONNECTION_ACTION_OUTPUT_VALIDATION = "CONNECTION_ACTION_OUTPUT_VALIDATION",
  CONNECTION_RATE_LIMITED = "CONNECTION_RATE_LIMITED",
  CONNECTION_SERVICE_UNAVAILABLE = "CONNECTION_SERVICE_UNAVAILABLE",
  CONNECTION_SERVICE_BUSY = "CONNECTION_SERVICE_BUSY",
}

export const ErrorStatusCodes: Readonly<Record<ErrorType, number>> = Object.freeze({
  [ErrorType.SERVER_INITIALIZATION]: 500,
  [ErrorType.SERVER_START]: 500,
  [ErrorType.SERVER_STOP]: 500,
  [ErrorType.CONFIG_ERROR]: 500,
  [ErrorType.CONNECTION_SERVER_ERROR]: 500,
  [ErrorType.CONNECTION_ACTION_RUN]: 500,
  [ErrorType.CONNECTION_TASK_DEFINITION]: 500,
  [ErrorType.CONNECTION_SESSION_NOT_FOUND]: 401,
  [ErrorType.CONNECTION_NOT_AUTHENTICATED]: 401,
  [ErrorType.CONNECTION_FORBIDDEN]: 403,
  [ErrorType.CONNECTION_CHANNEL_AUTHORIZATION]: 403,
  [ErrorType.CONNECTION_ACTION_NOT_FOUND]: 404,
  [ErrorType.CONNECTION_NOT_FOUND]: 404,
  [ErrorType.CONNECTION_METHOD_NOT_ALLOWED]: 405,
  // A deadline of the server's, not a client too slow to send (408, which clients retry as is): docs/errors.md.
  [ErrorType.CONNECTION_ACTION_TIMEOUT]: 504,
  // nginx's "client closed request": recorded, never sent, since no one is left to receive it.
  [ErrorType.CONNECTION_CLIENT_GONE]: 499,
  // The action asked its caller something (connection.ask) the call can not bring: the request is incomplete, not wrong.
  [ErrorType.CONNECTION_INPUT_REQUIRED]: 422,
  [ErrorType.CONNECTION_CONFLICT]: 409,
  [ErrorType.CONNECTION_PAYLOAD_TOO_LARGE]: 413,
  [ErrorType.CONNECTION_UNSUPPORTED_MEDIA_TYPE]: 415,
  [ErrorType.CONNECTION_ACTION_PARAM_FORMATTING]: 400,
  [ErrorType.CONNECTION_CHANNEL_VALIDATION]: 400,
  [ErrorType.CONNECTION_ACTION_PARAM_REQUIRED]: 422,
  [ErrorType.CONNECTION_ACTION_PARAM_VALIDATION]: 422,
  [ErrorType.CONNECTION_ACTION_OUTPUT_VALIDATION]: 500,
  [ErrorType.CONNECTION_RATE_LIMITED]: 429,
  [ErrorType.CONNECTION_SERVICE_UNAVAILABLE]: 503,
  [ErrorType.CONNECTION_SERVICE_BUSY]: 503,
});

/** One zod issue as it appears in an error body. */
export interface ErrorIssue {
  path: (string | number)[];
  message: string;
  code: string;
}

export interface TypedErrorOptions {
  message: string;
  type: ErrorType;
  key?: string;
  value?: unknown;
  issues?: ErrorIssue[];
  cause?: unknown;
}

export class TypedError extends Error {
  readonly type: ErrorType;
  declare readonly key?: string;
  declare readonly value?: unknown;
  declare readonly issues?: ErrorIssue[];
  readonly timestamp: number;

  constructor(options: TypedErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TypedError";
    this.type = options.type;
    // Optional members are only set when given, so `"value" in error` tells whether one was echoed.
    if (options.key !== undefined) (this as { key?: string }).key = options.key;
    if (options.value !== undefined) (this as { value?: unknown }).value = options.value;
    if (options.issues !== undefined) (this as { issues?: ErrorIssue[] }).issues = options.issues;
    this.timestamp = Date.now();
  }

  get status(): number {
    return ErrorStatusCodes[this.type] ?? 500;
  }
}

export function isTypedError(error: unknown): error is TypedError {
  return error instanceof TypedError;
}

/**
 * The seconds after which a refusal to retry later (a 429, or a 503 of a busy service) asks to be
 * retried, from its `value.retryAfter`, rounded up; undefined for any other error, or one without it.
 */
export function retryAfterOf(error: TypedError): number | undefined {
  if (error.status !== 429 && error.status !== 503) return undefined;
  const retryAfter = (error.value as { retryAfter?: unknown } | undefined)?.retryAfter;
  return typeof retryAfter === "number" && retryAfter > 0 ? Math.ceil(retryAfter) : undefined;
}
