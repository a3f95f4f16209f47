import type { HeraldConfig } from "../core/config";
import type { MiddlewareSecurity } from "../core/middleware";
import { readSessionCookieName } from "./session-settings";

/** The security scheme name the session cookie is declared under in the OpenAPI document. */
export const SESSION_SECURITY_NAME = "session";

/**
 * The session cookie as a credential, for the `security` of a middleware that admits only callers
 * whose session holds something (a signed-in user): the document then requires the cookie on the
 * actions it guards.
 */
export function sessionCookieSecurity(config: HeraldConfig, description = "The session cookie a sign-in sets."): MiddlewareSecurity {
  return { name: SESSION_SECURITY_NAME, scheme: { type: "apiKey", in: "cookie", name: readSessionCookieName(config), description } };
}
