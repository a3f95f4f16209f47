import { generateKeyPairSync, randomBytes } from "node:crypto";

/**
 * A JSON Web Key Set of one new ES256 signing key, with a random `kid`: what the authorization
 * server signs with when OAUTH_JWKS is unset, made per process (or, by a cluster's primary, once
 * for all its processes).
 */
export function generatedSigningKeys(): { keys: Record<string, unknown>[] } {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { keys: [{ ...privateKey.export({ format: "jwk" }), alg: "ES256", use: "sig", kid: randomBytes(8).toString("hex") }] };
}
