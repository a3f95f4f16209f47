/** oidc-provider is an ES module, loaded by the time it consumes anything: its errors are its own answers. */
type OidcProvider = typeof import("oidc-provider", { with: { "resolution-mode": "import" } });

/**
 * What a storage's `consume` throws when the record was consumed already, or is gone: a second
 * redemption of one authorization code (or refresh token) that read the record before the first
 * marked it. oidc-provider checks `consumed` on the record it read, which two requests in flight
 * together both pass; marking it is the one step that can tell them apart, so exactly one wins
 * and the other is answered `invalid_grant`, as a later reuse is.
 */
export function alreadyConsumed(model: string): Error {
  const { errors } = require("oidc-provider") as OidcProvider;
  return new errors.InvalidGrant(`${model} already consumed`);
}
