import type { InjectionToken } from "tsyringe";
import type { ConnectionSession } from "../connection";

/** How long a client or a proxy may keep an OAuth metadata document: it changes with a deploy, not per request. */
export const METADATA_CACHE_CONTROL = "public, max-age=300";

/** A resource the built-in authorization server issues tokens for: the MCP endpoint, for one. */
export interface ProtectedResource {
  /** Its identifier (RFC 8707), read at each request: the server's URL is known only once it listens. */
  url(): string;
  /** Whether a resource indicator names it otherwise than `url()` does (in development, another loopback spelling). */
  identifies?(indicator: string): boolean;
  /** The scopes a token for it may carry. */
  scopes: readonly string[];
}

/** An access token the built-in authorization server issued, as a resource server sees it. */
export interface IssuedAccessToken {
  /** `sub`, `client_id`, `scope`, `aud`, `exp`, `iss`: what introspection would say of it. */
  claims: Record<string, unknown>;
  /** The Herald session the sign-in populated, loaded: the caller's session for the token's calls. */
  session: ConnectionSession;
}

/**
 * The built-in authorization server (src/auth) as the transports see it, through the container,
 * so that no transport imports it: the MCP endpoint trusts its tokens and names it in its metadata.
 */
export interface LocalAuthorizationServer {
  /** Its issuer identifier: the server's origin. */
  readonly issuer: string;
  protect(resource: ProtectedResource): void;
  /** The token's claims and session; undefined when it is unknown, expired, revoked, or its session has ended. */
  verifyAccessToken(token: string): Promise<IssuedAccessToken | undefined>;
}

export const LOCAL_AUTHORIZATION_SERVER: InjectionToken<LocalAuthorizationServer> = Symbol("LocalAuthorizationServer");
