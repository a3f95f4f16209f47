import type { Configuration, interactionPolicy, KoaContextWithOIDC } from "oidc-provider" with { "resolution-mode": "import" };
import type { ProtectedResource } from "../core/ports/authorization-server";
import { safeCompare } from "../core/safe-compare";
import type { AuthSettings } from "./auth-settings";
import { renderErrorPage } from "./pages";
import { plainHttpRedirect } from "./redirect-uri-policy";
import type { OAuthStorage } from "./storage";

export const INTERACTION_PATH = "/interaction";
/**
 * The scope every token for a protected resource carries: a grant must hold one, and a client
 * that asks for none (the resource names no scopes of its own) is given this one.
 */
export const BASE_SCOPE = "mcp";
export const ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  registration: "/oauth/register",
  revocation: "/oauth/revoke",
  jwks: "/oauth/jwks",
};

/** Redirect URIs a native app may answer on (RFC 8252): loopback over http (on any port), or a scheme of its own. */
function nativeRedirects(uris: unknown): boolean {
  if (!Array.isArray(uris) || uris.length === 0) return false;
  return uris.every((uri) => {
    const parsed = typeof uri === "string" ? URL.parse(uri) : null;
    if (!parsed) return false;
    if (parsed.protocol === "http:") return ["127.0.0.1", "[::1]", "localhost"].includes(parsed.hostname);
    return parsed.protocol !== "https:";
  });
}

export interface ProviderParts {
  settings: AuthSettings;
  storage: OAuthStorage;
  resources: () => readonly ProtectedResource[];
  /** Whether a Herald session (the id of a grant: the session its sign-in filled) still signs someone in. */
  sessionAlive(sessionId: string): Promise<boolean>;
  /** The prompts (sign-in-policy.ts); oidc-provider's own when absent. */
  policy?: interactionPolicy.Prompt[];
  errors: { InvalidTarget: new (description?: string) => Error; InvalidClientMetadata: new (description: string) => Error };
  /** How client ID metadata documents are fetched (metadata-document-fetch.ts); oidc-provider's own when absent. */
  fetch?: typeof fetch;
}

/**
 * oidc-provider's configuration for MCP clients: public clients registering themselves (or
 * named by a client ID metadata document), the authorization code grant with PKCE S256 only,
 * rotating refresh tokens, and opaque access tokens bound to one of Herald's protected resources.
 */
export function providerConfiguration(parts: ProviderParts): Configuration {
  const { settings, storage, resources } = parts;
  const resourceFor = (indicator: string) => resources().find((resource) => resource.url() === indicator || resource.identifies?.(indicator));
  const scopes = () => [...new Set(resources().flatMap((resource) => resource.scopes))];
  return {
    adapter: (name: string) => storage.adapter(name),
    ...(parts.fetch ? { fetch: parts.fetch as never } : {}),
    jwks: settings.jwks as Configuration["jwks"],
    cookies: { keys: settings.cookieSecrets, long: { signed: true }, short: { signed: true } },
    routes: ROUTES,
    scopes: ["openid", BASE_SCOPE, ...scopes()],
    responseTypes: ["code"],
    clientAuthMethods: ["none"],
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "ES256",
    },
    // A client that names only loopback or private-scheme redirects is a native app, whose loopback port varies (RFC 8252).
    extraClientMetadata: {
      properties: ["application_type"],
      validator(ctx, key, value, metadata) {
        const refused = key === "application_type" ? plainHttpRedirect(metadata.redirect_uris) : undefined;
        if (refused) throw new parts.errors.InvalidClientMetadata(`redirect_uris must use https, or http on a loopback address only: ${refused}`);
        // The schema has filled in the default ("web") already: what the registration itself said decides.
        const registered = (ctx as { oidc?: { body?: Record<string, unknown> } } | undefined)?.oidc?.body;
        if (key !== "application_type" || value === "native" || !registered || registered.application_type !== undefined) return;
        if (nativeRedirects(metadata.redirect_uris)) metadata.application_type = "native";
      },
    },
    pkce: { required: () => true },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: settings.accessTokenTtl,
      AuthorizationCode: 60,
      Interaction: 600,
      RefreshToken: settings.refreshTokenTtl,
      Grant: settings.refreshTokenTtl,
      Session: settings.refreshTokenTtl,
      IdToken: 600,
    },
    // The account is the user, whose id clients see as `sub`; a code's or a token's grant is the session its sign-in filled, and ends with it.
    findAccount: async (_ctx, accountId, token) => {
      if (token?.grantId !== undefined && !(await parts.sessionAlive(token.grantId))) return undefined;
      return { accountId, claims: async () => ({ sub: accountId }) };
    },
    interactions: { ...(parts.policy ? { policy: parts.policy } : {}), url: async (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    // Public clients hold no secret and send no cookie to these endpoints: any origin may call them.
    clientBasedCORS: () => true,
    renderError: async (ctx: KoaContextWithOIDC, out) => {
      ctx.type = "html";
      ctx.body = renderErrorPage(out.error, out.error_description);
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      introspection: { enabled: false },
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId !== undefined && safeCompare(token.clientId, client.clientId) },
      registration: { enabled: settings.limits.registration, initialAccessToken: false, issueRegistrationAccessToken: false },
      clientIdMetadataDocument: { enabled: true, ack: "draft-02" },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? resources()[0]?.url() ?? "",
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          const resource = resourceFor(indicator);
          if (!resource) throw new parts.errors.InvalidTarget(`${indicator} is not a resource of this server`);
          return { scope: [BASE_SCOPE, ...resource.scopes].join(" "), audience: indicator, accessTokenTTL: settings.accessTokenTtl, accessTokenFormat: "opaque" };
        },
      },
    } as Configuration["features"],
  };
}
