import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { ErrorType, TypedError } from "../core/errors";

type Jwk = Record<string, unknown>;

function invalid(reason: string): TypedError {
  return new TypedError({ message: `Invalid environment variable OAUTH_JWKS: ${reason}`, type: ErrorType.CONFIG_ERROR, key: "OAUTH_JWKS" });
}

const PUBLIC_PARTS: Record<string, string[]> = { EC: ["kty", "crv", "x", "y"], RSA: ["kty", "n", "e"], OKP: ["kty", "crv", "x"] };

/**
 * Why a key cannot sign, if it cannot: its private part must import, and what it signs must
 * verify with its public part alone (a private part pasted from another key imports fine).
 */
function keyProblem(key: Jwk): string | undefined {
  const publicParts = PUBLIC_PARTS[String(key.kty)];
  if (!publicParts) return `a ${String(key.kty)} key cannot sign here`;
  try {
    const privateKey = createPrivateKey({ key: key as never, format: "jwk" });
    const publicKey = createPublicKey({ key: Object.fromEntries(publicParts.map((part) => [part, key[part]])) as never, format: "jwk" });
    const probe = Buffer.from("herald signing key check");
    const algorithm = key.kty === "OKP" ? null : "sha256";
    if (!verify(algorithm, probe, publicKey, sign(algorithm, probe, privateKey))) return "its private part does not belong to its public one";
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

/** ID tokens are signed ES256 (the clients' default): a key of the set must be able to. */
function signsEs256(key: Jwk): boolean {
  return key.kty === "EC" && key.crv === "P-256" && (key.alg === undefined || key.alg === "ES256") && key.use !== "enc";
}

/**
 * Checks the configured signing keys at boot, as oidc-provider will read them at the first OAuth
 * request: a set it refuses would otherwise let the server start and then answer 500 at every
 * OAuth endpoint. `build` constructs the provider with them, which throws what oidc-provider
 * refuses; its messages name the key by index and never hold key material, nor do these.
 */
export function checkSigningKeys(jwks: { keys: Jwk[] }, build: () => unknown): void {
  jwks.keys.forEach((key, index) => {
    const problem = keyProblem(key);
    if (problem) throw invalid(`keys[${index}] is not a usable private key (${problem})`);
  });
  if (!jwks.keys.some(signsEs256)) throw invalid("needs an EC P-256 key (ES256), which signs the ID tokens");
  try {
    build();
  } catch (error) {
    throw invalid(`oidc-provider refuses it: ${(error as Error).message}`);
  }
}
