import type { Adapter, AdapterPayload } from "oidc-provider" with { "resolution-mode": "import" };

/**
 * Where the authorization server keeps its records (clients, grants, codes, tokens, interactions,
 * sessions): one store for every model, opened and closed with the server. oidc-provider asks it
 * for an adapter per model name.
 */
export interface OAuthStorage {
  readonly driver: string;
  adapter(model: string): Adapter;
  connect(): Promise<void>;
  close(): Promise<void>;
}

export type { Adapter, AdapterPayload };

/** Models whose records belong to a grant, and are deleted with it when one of its tokens is revoked. */
export const GRANTABLE = new Set(["AccessToken", "AuthorizationCode", "RefreshToken", "DeviceCode", "BackchannelAuthenticationRequest"]);
