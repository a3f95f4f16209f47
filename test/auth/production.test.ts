import { generateKeyPairSync } from "node:crypto";
import { ErrorType, type HeraldServer } from "herald";
import { startTestServer } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { SAMPLE_APP } from "../sample-app/support/app";

const postgres = usePostgresSchema("auth_production");
const production = { NODE_ENV: "production", HOST: "127.0.0.1", SESSION_SECRET: "a-session-secret-of-at-least-32-characters", REDIS_URL: "", LOG_LEVEL: "fatal" };
const cookieSecret = "an-oauth-cookie-secret-of-32-characters-or-more";

function privateJwks(kid: string): string {
  const jwk = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
  return JSON.stringify({ keys: [{ ...jwk, kid, alg: "ES256", use: "sig" }] });
}

function boot(env: Record<string, string>): Promise<HeraldServer> {
  return startTestServer({ appDir: SAMPLE_APP, env: { ...production, DATABASE_URL: postgres.url, ...env } });
}

test("production refuses to start without signing keys", async () => {
  await expect(boot({ OAUTH_COOKIE_SECRETS: cookieSecret })).rejects.toMatchObject({ type: ErrorType.CONFIG_ERROR, key: "OAUTH_JWKS" });
});

test("production refuses to start without a cookie secret", async () => {
  await expect(boot({ OAUTH_JWKS: privateJwks("k1") })).rejects.toMatchObject({ type: ErrorType.CONFIG_ERROR, key: "OAUTH_COOKIE_SECRETS" });
});

test("signing keys without their private part are refused, and not echoed", async () => {
  const { d: _private, ...publicKey } = JSON.parse(privateJwks("k2")).keys[0] as Record<string, string>;
  const error = await boot({ OAUTH_JWKS: JSON.stringify({ keys: [publicKey] }), OAUTH_COOKIE_SECRETS: cookieSecret }).catch((rejection: unknown) => rejection);
  expect(error).toMatchObject({ type: ErrorType.CONFIG_ERROR, key: "OAUTH_JWKS" });
  expect((error as Error).message).not.toContain(publicKey.x);
});

test("with them, production starts and publishes the configured key", async () => {
  const server = await boot({ OAUTH_JWKS: privateJwks("configured-key"), OAUTH_COOKIE_SECRETS: cookieSecret });
  try {
    const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as { jwks_uri: string };
    const jwks = (await (await fetch(metadata.jwks_uri)).json()) as { keys: { kid: string; d?: string }[] };
    expect(jwks.keys.map((key) => key.kid)).toEqual(["configured-key"]);
    expect(jwks.keys[0]).not.toHaveProperty("d");
  } finally {
    await server.stop();
  }
});
