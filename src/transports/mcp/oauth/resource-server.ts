import type { ServerResponse } from "node:http";
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
  type OAuthProtectedResourceMetadata,
} from "@modelcontextprotocol/server";
import type { ConnectionAuth } from "../../../core/connection";
import { asRequestSpellsIt } from "../../../core/loopback-names";
import type { McpSettings, OAuthSettings } from "../settings";
import { AccessTokenVerifier } from "./token-verifier";

/** A refusal to answer before the SDK sees the request: the challenge an MCP client signs in from. */
export type Challenge = Response;

/**
 * The MCP endpoint as an OAuth 2.1 resource server (RFC 9728, RFC 8707): it names its
 * authorization server in its protected resource metadata, verifies the access token a request
 * carries, and asks a client without a token, or without a tool's scopes, to sign in.
 */
export class McpResourceServer {
  private readonly verifier: AccessTokenVerifier;

  constructor(
    private readonly settings: McpSettings & { oauth: OAuthSettings },
    private readonly serverUrl: () => string,
    private readonly scopesSupported: readonly string[],
    private readonly production: boolean,
  ) {
    this.verifier = new AccessTokenVerifier(settings.oauth, () => this.resource);
  }

  /** This server's resource identifier: the MCP endpoint's URL, at PUBLIC_URL when it is set. */
  get resource(): URL {
    return new URL(this.settings.path, this.settings.publicUrl ?? this.serverUrl());
  }

  /**
   * The resource identifier under the `Host` a request names. In development without PUBLIC_URL,
   * a client set up with `localhost` and one set up with `127.0.0.1` each get the spelling they
   * asked for (the SDKs refuse metadata naming another); everywhere else, the one identifier.
   */
  resourceFor(host: string | undefined): URL {
    if (this.production || this.settings.publicUrl) return this.resource;
    return asRequestSpellsIt(this.resource, host);
  }

  /** Whether a resource indicator names this endpoint: its identifier, or in development another loopback spelling of it. */
  identifies(indicator: string): boolean {
    const url = URL.parse(indicator);
    return url !== null && this.resourceFor(url.host).href === url.href;
  }

  metadataUrl(host?: string): string {
    return getOAuthProtectedResourceMetadataUrl(this.resourceFor(host));
  }

  metadata(host?: string): OAuthProtectedResourceMetadata {
    return {
      resource: this.resourceFor(host).href,
      authorization_servers: [this.settings.oauth.issuer],
      bearer_methods_supported: ["header"],
      ...(this.scopesSupported.length ? { scopes_supported: [...this.scopesSupported] } : {}),
    };
  }

  /** The verified token of a request that sent one, undefined for one that sent none, or the 401 to answer; `host` is the request's. */
  async authenticate(authorization: string | undefined, host?: string): Promise<AuthInfo | undefined | Challenge> {
    if (authorization === undefined) return undefined;
    const resource = this.resourceFor(host);
    const resourceMetadataUrl = this.metadataUrl(host);
    const verifier = { verifyAccessToken: (token: string) => this.verifier.verifyAccessToken(token, resource) };
    try {
      return await verifyBearerToken(authorization, { verifier, resourceMetadataUrl });
    } catch (error) {
      return bearerAuthChallengeResponse(error, { resourceMetadataUrl });
    }
  }

  /** For a tool whose action refused a caller without a token as not signed in: the 401 to sign in from. */
  signInChallenge(toolName: string, host?: string): Challenge {
    return withoutErrorCode(bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, `Sign in to call ${toolName}`), { resourceMetadataUrl: this.metadataUrl(host) }));
  }

  /** For a tool that needs `scopes`: nothing when the token has them, else the 401 (no token) or 403 (too few scopes). */
  challengeFor(toolName: string, scopes: readonly string[], auth: AuthInfo | undefined, host?: string): Challenge | undefined {
    if (scopes.length === 0) return undefined;
    const options = { requiredScopes: [...scopes], resourceMetadataUrl: this.metadataUrl(host) };
    if (!auth) return withoutErrorCode(bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, `Sign in to call ${toolName}`), options));
    const missing = scopes.filter((scope) => !auth.scopes.includes(scope));
    if (missing.length === 0) return undefined;
    return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InsufficientScope, `${toolName} needs the scope ${missing.join(" ")}`), options);
  }
}

/** One auth-param of a challenge: a name, and a quoted string or a token. */
const AUTH_PARAM = /([a-zA-Z_][\w-]*)=("(?:[^"\\]|\\.)*"|[^,\s]*)/g;

/**
 * The challenge to a request that carried no token: RFC 6750 §3.1 gives it no error code (the
 * request is not wrong, it lacks credentials), only where to sign in. A bad token keeps its
 * `invalid_token`.
 */
function withoutErrorCode(challenge: Challenge): Challenge {
  const header = challenge.headers.get("www-authenticate");
  if (!header) return challenge;
  const headers = new Headers(challenge.headers);
  const kept = [...header.slice("Bearer".length).matchAll(AUTH_PARAM)].filter(([, name]) => name !== "error" && name !== "error_description");
  headers.set("www-authenticate", `Bearer ${kept.map(([param]) => param).join(", ")}`);
  return new Response(challenge.body, { status: challenge.status, statusText: challenge.statusText, headers });
}

/** The token as an action's connection carries it. */
export function connectionAuthOf(info: AuthInfo): ConnectionAuth {
  const extra = info.extra as { subject?: string; claims?: Record<string, unknown> } | undefined;
  return {
    ...(extra?.subject ? { subject: extra.subject } : {}),
    clientId: info.clientId,
    scopes: info.scopes,
    ...(info.expiresAt !== undefined ? { expiresAt: info.expiresAt } : {}),
    claims: extra?.claims ?? {},
  };
}

/** Writes a small web `Response` (a challenge, a metadata document) to Node's response. */
export async function writeWebResponse(response: ServerResponse, answer: Response): Promise<void> {
  const body = await answer.text();
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => (headers[name] = value));
  response.writeHead(answer.status, headers);
  response.end(body);
}
