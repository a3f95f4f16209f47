import { randomBytes } from "node:crypto";
import type { ResolvedAppConfig } from "../core/app-config";
import { generatedSigningKeys } from "../core/signing-keys";

/**
 * The secrets every process of one app must share, made by a cluster's primary for its processes
 * where none is set, outside production. Alone, a process makes its own with a warning; in a
 * cluster each would make a different one, and a cookie, a question's state or a token signed by
 * one process would be refused by the next. In production they are required, and each process
 * refuses to boot without them as a lone one does: nothing is made for it.
 */
export function sharedSecrets(env: Readonly<Record<string, string | undefined>>, app: Pick<ResolvedAppConfig, "oauth">): Record<string, string> {
  const made: Record<string, string> = {};
  const secret = () => randomBytes(32).toString("base64url");
  if (env.SESSION_SECRET === undefined) made.SESSION_SECRET = secret();
  if (env.MCP_REQUEST_STATE_KEY === undefined) made.MCP_REQUEST_STATE_KEY = secret();
  if (env.TASKS_WATCH_KEY === undefined) made.TASKS_WATCH_KEY = secret();
  if (app.oauth) {
    if (env.OAUTH_COOKIE_SECRETS === undefined) made.OAUTH_COOKIE_SECRETS = secret();
    if (env.OAUTH_JWKS === undefined) made.OAUTH_JWKS = JSON.stringify(generatedSigningKeys());
  }
  return made;
}

