import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from "@modelcontextprotocol/server";
import { safeCompare } from "../../../core/safe-compare";
import type { OAuthSettings } from "../settings";

type Claims = Record<string, unknown>;
/** jose is an ES module, which Node 22.12+ and 24 `require()`: loaded only where tokens are checked. */
type Jose = typeof import("jose", { with: { "resolution-mode": "import" } });

function scopesOf(claims: Claims): string[] {
  if (typeof claims.scope === "string") return claims.scope.split(" ").filter(Boolean);
  return Array.isArray(claims.scp) ? claims.scp.filter((scope): scope is string => typeof scope === "string") : [];
}

function audiencesOf(claims: Claims): string[] {
  const audience = claims.aud;
  return typeof audience === "string" ? [audience] : Array.isArray(audience) ? audience.filter((value): value is string => typeof value === "string") : [];
}

function invalid(message: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidToken, message);
}

/** The SDK's view of a verified token, with the subject and claims Herald gives the connection. */
function authInfoOf(token: string, claims: Claims, resource: URL): AuthInfo {
  if (!audiencesOf(claims).some((audience) => sameResource(audience, resource))) {
    throw invalid("The access token was issued for another resource");
  }
  const clientId = typeof claims.client_id === "string" ? claims.client_id : typeof claims.azp === "string" ? claims.azp : "";
  return {
    token,
    clientId,
    scopes: scopesOf(claims),
    ...(typeof claims.exp === "number" ? { expiresAt: claims.exp } : {}),
    resource,
    extra: { claims, ...(typeof claims.sub === "string" ? { subject: claims.sub } : {}) },
  };
}

/** RFC 8707 resource identifiers compare without a fragment and one trailing slash. */
function sameResource(audience: string, resource: URL): boolean {
  const normal = (value: string) => value.replace(/#.*$/, "").replace(/\/$/, "");
  return safeCompare(normal(audience), normal(resource.href));
}

/** The issuer's metadata, RFC 8414 first, then OpenID Connect discovery. */
async function discoverJwksUrl(issuer: string): Promise<string> {
  const base = issuer.replace(/\/$/, "");
  for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
    if (!response?.ok) continue;
    const metadata = (await response.json().catch(() => undefined)) as { jwks_uri?: unknown } | undefined;
    if (typeof metadata?.jwks_uri === "string") return metadata.jwks_uri;
  }
  throw new OAuthError(OAuthErrorCode.ServerError, `No jwks_uri in the metadata of ${issuer}: set MCP_AUTH_JWKS_URL`);
}

/**
 * Verifies JWT access tokens by the issuer's signing keys (JWKS, fetched and cached by jose), and
 * opaque ones by RFC 7662 introspection when that is configured: signature, issuer, expiry, and
 * the audience against this server's resource identifier (RFC 8707).
 */
export class AccessTokenVerifier implements OAuthTokenVerifier {
  private jwks: Promise<(header: unknown, token: unknown) => Promise<unknown>> | undefined;

  constructor(
    private readonly settings: OAuthSettings,
    private readonly resource: () => URL,
  ) {}

  /** `resource` is this server's identifier as the request spells it (another loopback spelling, in development). */
  async verifyAccessToken(token: string, resource: URL = this.resource()): Promise<AuthInfo> {
    if (this.settings.local) return this.verifyLocal(token, resource);
    const looksLikeJwt = token.split(".").length === 3;
    if (!looksLikeJwt && this.settings.introspection) return this.introspect(token, resource);
    if (!looksLikeJwt) throw invalid("The access token is not a JWT, and no introspection endpoint is configured");
    return this.verifyJwt(token, resource);
  }

  /** A token of the built-in authorization server, looked up in its storage; the call gets the session it signed in. */
  private async verifyLocal(token: string, resource: URL): Promise<AuthInfo> {
    const issued = await this.settings.local!.verifyAccessToken(token);
    if (!issued) throw invalid("The access token is not active");
    const info = authInfoOf(token, issued.claims, resource);
    return { ...info, extra: { ...info.extra, session: issued.session } };
  }

  private async verifyJwt(token: string, resource: URL): Promise<AuthInfo> {
    const jose = require("jose") as Jose;
    this.jwks ??= (this.settings.jwksUrl ? Promise.resolve(this.settings.jwksUrl) : discoverJwksUrl(this.settings.issuer)).then(
      (url) => jose.createRemoteJWKSet(new URL(url)) as never,
    );
    this.jwks.catch(() => (this.jwks = undefined));
    let claims: Claims;
    try {
      ({ payload: claims } = await jose.jwtVerify(token, (await this.jwks) as never, { issuer: this.settings.issuer, requiredClaims: ["exp"] }));
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      throw invalid(error instanceof jose.errors.JWTExpired ? "The access token has expired" : "The access token is not valid");
    }
    return authInfoOf(token, claims, resource);
  }

  private async introspect(token: string, resource: URL): Promise<AuthInfo> {
    const { url, clientId, clientSecret } = this.settings.introspection!;
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`,
      },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }),
      signal: AbortSignal.timeout(10_000),
    }).catch((error: unknown) => {
      throw new OAuthError(OAuthErrorCode.ServerError, `Token introspection failed: ${(error as Error).message}`);
    });
    if (!response.ok) throw new OAuthError(OAuthErrorCode.ServerError, `Token introspection answered ${response.status}`);
    const claims = (await response.json()) as Claims;
    if (claims.active !== true) throw invalid("The access token is not active");
    if (typeof claims.iss === "string" && !safeCompare(claims.iss, this.settings.issuer)) throw invalid("The access token is from another issuer");
    if (typeof claims.exp !== "number") throw invalid("The access token has no expiry");
    return authInfoOf(token, claims, resource);
  }
}
