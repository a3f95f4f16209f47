import { z } from "zod";
import { readSettings, type HeraldConfig } from "../../core/config";
import { ErrorType, TypedError } from "../../core/errors";
import type { LocalAuthorizationServer } from "../../core/ports/authorization-server";
import { zCommaList } from "../../core/setting-schemas";

const list = zCommaList.optional();

const schema = z.object({
  MCP_PATH: z.string().startsWith("/").default("/mcp"),
  /** The address clients reach the server at (`https://chat.example.com`): its host and origin are accepted. */
  PUBLIC_URL: z.url().optional(),
  /** Host header values accepted besides PUBLIC_URL's, the bound host and the loopback names; `*` for any. */
  MCP_ALLOWED_HOSTS: list,
  /** Origins accepted from browsers; none but the server's own when unset. */
  MCP_ALLOWED_ORIGINS: list,
  /** The OAuth authorization server whose access tokens this server accepts; unset, no token is checked. */
  MCP_AUTH_ISSUER: z.url().optional(),
  /** Its signing keys; read from the issuer's metadata (`jwks_uri`) when unset. */
  MCP_AUTH_JWKS_URL: z.url().optional(),
  /** RFC 7662 introspection, for opaque access tokens, with this server's client credentials. */
  MCP_AUTH_INTROSPECTION_URL: z.url().optional(),
  MCP_AUTH_CLIENT_ID: z.string().optional(),
  MCP_AUTH_CLIENT_SECRET: z.string().optional(),
  /** Open `subscriptions/listen` streams one process keeps; a new one past it is refused in-band. */
  MCP_MAX_SUBSCRIPTIONS: z.coerce.number().int().positive().default(1024),
  /** Of those, the streams one caller (its address; its token, when it has one) may hold; one more is refused in-band. */
  MCP_MAX_SUBSCRIPTIONS_PER_CALLER: z.coerce.number().int().positive().default(32),
  /** The HMAC key of the requestState an action's questions carry (connection.ask); the same in every process. */
  MCP_REQUEST_STATE_KEY: z.string().optional(),
});

/** The SDK's codec refuses shorter keys. */
const MIN_REQUEST_STATE_KEY_LENGTH = 32;

export interface McpSettings {
  path: string;
  /** Host names accepted besides the bound host and the loopback names: PUBLIC_URL's and MCP_ALLOWED_HOSTS. */
  allowedHosts: string[];
  /** Browser origins accepted besides the server's own: PUBLIC_URL's and MCP_ALLOWED_ORIGINS. */
  allowedOrigins: string[];
  maxSubscriptions: number;
  maxSubscriptionsPerCaller: number;
  /** The address clients reach the server at, when configured: the MCP resource's identifier derives from it. */
  publicUrl?: URL;
  oauth?: OAuthSettings;
  /** MCP_REQUEST_STATE_KEY, when set. */
  requestStateKey?: string;
}

export interface OAuthSettings {
  issuer: string;
  jwksUrl?: string;
  introspection?: { url: string; clientId: string; clientSecret: string };
  /** The app's built-in authorization server, whose tokens are checked in process rather than over HTTP. */
  local?: LocalAuthorizationServer;
}

/** The built-in authorization server as the issuer, when the app runs one and MCP_AUTH_ISSUER names none. */
export function localOAuthSettings(local: LocalAuthorizationServer): OAuthSettings {
  return {
    get issuer() {
      return local.issuer;
    },
    local,
  };
}

export function readMcpSettings(config: HeraldConfig): McpSettings {
  const values = readSettings(schema, config);
  const publicUrl = values.PUBLIC_URL === undefined ? undefined : new URL(values.PUBLIC_URL);
  return {
    path: values.MCP_PATH,
    allowedHosts: [...(publicUrl ? [publicUrl.hostname] : []), ...(values.MCP_ALLOWED_HOSTS ?? [])],
    allowedOrigins: [...(publicUrl ? [publicUrl.origin] : []), ...(values.MCP_ALLOWED_ORIGINS ?? [])],
    maxSubscriptions: values.MCP_MAX_SUBSCRIPTIONS,
    maxSubscriptionsPerCaller: values.MCP_MAX_SUBSCRIPTIONS_PER_CALLER,
    ...(publicUrl ? { publicUrl } : {}),
    ...(values.MCP_AUTH_ISSUER ? { oauth: oauthSettings(values) } : {}),
    ...(values.MCP_REQUEST_STATE_KEY !== undefined ? { requestStateKey: requestStateKey(values.MCP_REQUEST_STATE_KEY) } : {}),
  };
}

// Checked here rather than in the schema, whose error would carry the rejected value.
function requestStateKey(key: string): string {
  if (key.length >= MIN_REQUEST_STATE_KEY_LENGTH) return key;
  throw new TypedError({
    message: `Invalid environment variable MCP_REQUEST_STATE_KEY: must be at least ${MIN_REQUEST_STATE_KEY_LENGTH} characters long`,
    type: ErrorType.CONFIG_ERROR,
    key: "MCP_REQUEST_STATE_KEY",
  });
}

function oauthSettings(values: z.infer<typeof schema>): OAuthSettings {
  const { MCP_AUTH_INTROSPECTION_URL: url, MCP_AUTH_CLIENT_ID: clientId, MCP_AUTH_CLIENT_SECRET: clientSecret } = values;
  if (url && (!clientId || !clientSecret)) {
    throw new TypedError({
      message: "MCP_AUTH_INTROSPECTION_URL needs MCP_AUTH_CLIENT_ID and MCP_AUTH_CLIENT_SECRET: this server's credentials at the introspection endpoint",
      type: ErrorType.CONFIG_ERROR,
    });
  }
  return {
    issuer: values.MCP_AUTH_ISSUER!,
    ...(values.MCP_AUTH_JWKS_URL ? { jwksUrl: values.MCP_AUTH_JWKS_URL } : {}),
    ...(url ? { introspection: { url, clientId: clientId!, clientSecret: clientSecret! } } : {}),
  };
}
