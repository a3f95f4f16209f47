import { ErrorType, TypedError } from "../core/errors";

/**
 * The one error a Redis failure becomes, on every transport: 503 CONNECTION_SERVICE_UNAVAILABLE,
 * naming what could not reach Redis (`service`, e.g. "the session store"). A TypedError passes through.
 */
export function redisUnavailable(service: string, cause: unknown): TypedError {
  if (cause instanceof TypedError) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new TypedError({
    message: `${service.charAt(0).toUpperCase()}${service.slice(1)} cannot reach Redis: ${reason}`,
    type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Runs Redis work, turning its failure into `redisUnavailable`. */
export async function redisCommand<T>(service: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (cause) {
    throw redisUnavailable(service, cause);
  }
}
