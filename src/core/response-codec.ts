import { errorBody, toTypedError, type ErrorBody } from "./error-body";
import type { TypedError } from "./errors";
import { encodeResponse } from "./response-encoder";

/**
 * The one way out of a call for every transport: a response as JSON text, anything thrown as the
 * error body this environment may show (in production a foreign error's message and every stack
 * stay in the log). Made once per server from its config, so that no transport carries the
 * environment itself, and every refusal a transport makes on its own reads as the dispatcher's do.
 */
export class ResponseCodec {
  constructor(private readonly production: boolean) {}

  /** The response as JSON text; one JSON cannot carry throws CONNECTION_SERVER_ERROR naming where (response-encoder.ts). */
  encode(actionName: string, value: unknown): string {
    return encodeResponse(actionName, value);
  }

  /** Anything thrown, as a TypedError: a foreign error's own message only outside production. */
  toError(thrown: unknown): TypedError {
    return toTypedError(thrown, this.production);
  }

  /** The error body of anything thrown, as the caller may see it here. */
  errorBody(thrown: unknown): ErrorBody {
    return errorBody(this.toError(thrown), this.production);
  }

  /** The error body as JSON text. */
  errorText(thrown: unknown): string {
    return JSON.stringify(this.errorBody(thrown));
  }
}
