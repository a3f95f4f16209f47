import { generateKeyPairSync } from "node:crypto";
import { ErrorType, type HeraldServer } from "herald";
import { startTestServer } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { SAMPLE_APP } from "../sample-app/support/app";

const postgres = usePostgresSchema("auth_signing_keys");
const production = { NODE_ENV: "production", HOST: "127.0.0.1", SESSION_SECRET: "a-session-secret-of-at-least-32-characters", REDIS_URL: "", LOG_LEVEL: "fatal" };
const cookieSecret = "an-oauth-cookie-secret-of-32-characters-or-more";

function boot(keys: Record<string, unknown>[]): Promise<HeraldServer> {
  const env = { ...production, DATABASE_URL: postgres.url, OAUTH_JWKS: JSON.stringify({ keys }), OAUTH_COOKIE_SECRETS: cookieSecret };
  return startTestServer({ appDir: SAMPLE_APP, env });
}

const ecKey = () => generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" }) as Record<string, string>;
const rsaKey = () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }) as Record<string, string>;

test.each([
  ["two keys with one kid", () => [{ ...ecKey(), kid: "same" }, { ...ecKey(), kid: "same" }], "duplicate"],
  ["a key of no use to it", () => [{ ...ecKey(), kid: "ec" }, { ...ecKey(), kid: "enc", use: "enc" }], "keys[1]"],
  ["a private part of another key", () => [{ ...ecKey(), d: ecKey().d, kid: "mixed" }], "keys[0]"],
  ["a curve the key is not on", () => [{ ...ecKey(), crv: "P-384", kid: "curve" }], "keys[0]"],
  ["no key that signs ES256", () => [{ ...rsaKey(), kid: "rsa" }], "ES256"],
])("production refuses to boot with signing keys oidc-provider cannot use: %s", async (_case, keys, reason) => {
  const given: Record<string, unknown>[] = keys();
  const error = await boot(given).catch((rejection: unknown) => rejection);
  expect(error).toMatchObject({ type: ErrorType.CONFIG_ERROR, key: "OAUTH_JWKS" });
  const message = (error as Error).message;
  expect(message).toMatch(/^Invalid environment variable OAUTH_JWKS: /);
  expect(message).toContain(reason);
  for (const key of given) for (const part of ["d", "x", "n"]) if (typeof key[part] === "string") expect(message).not.toContain(key[part]);
});

test("keys it can use boot, and an ID token-signing EC key beside an RSA one is enough", async () => {
  const server = await boot([{ ...rsaKey(), kid: "rsa", alg: "RS256", use: "sig" }, { ...ecKey(), kid: "ec", alg: "ES256", use: "sig" }]);
  try {
    const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as { jwks_uri: string };
    expect((await fetch(metadata.jwks_uri)).status).toBe(200);
  } finally {
    await server.stop();
  }
});
