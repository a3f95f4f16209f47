import type { ErrorDeclarations } from "../core/error-declarations";
import { ErrorType } from "../core/errors";

const BODY_METHODS = new Set(["post", "put", "patch"]);

/** Whether a call by `method` (lower case) carries its inputs in a body: POST, PUT and PATCH do. */
export function takesBody(method: string): boolean {
  return BODY_METHODS.has(method);
}

/** What reading a request body may end a call with, before the dispatcher sees it (transports/http/body.ts). */
const BODY_ERRORS: ErrorDeclarations = {
  [ErrorType.CONNECTION_ACTION_PARAM_FORMATTING]: true,
  [ErrorType.CONNECTION_PAYLOAD_TOO_LARGE]: true,
};

/** Only an action with inputs reads a body's type, and refuses one it does not read. */
const TYPED_BODY_ERRORS: ErrorDeclarations = { ...BODY_ERRORS, [ErrorType.CONNECTION_UNSUPPORTED_MEDIA_TYPE]: true };

/** The HTTP transport's own errors for a route whose method carries a body (see `takesBody`). */
export function httpBodyErrors(readsInputs: boolean): ErrorDeclarations {
  return readsInputs ? TYPED_BODY_ERRORS : BODY_ERRORS;
}
