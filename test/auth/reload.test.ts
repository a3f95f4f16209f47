import { LOCAL_AUTHORIZATION_SERVER, type HeraldServer } from "herald";
import { startTestServer } from "herald/testing";
import { reclaimKept, reloadKeeping } from "../../src/core/kept-across-reloads";
import type { AuthorizationServer } from "../../src/auth/authorization-server";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { SAMPLE_APP } from "../sample-app/support/app";
import { jsonLogs } from "../support/json-logs";

/** The sample app under `herald dev`: no OAuth keys set, grants in process. */
const postgres = usePostgresSchema("auth_reload");
const { lines, stream } = jsonLogs();
const development = { NODE_ENV: "development", HOST: "127.0.0.1", REDIS_URL: "", LOG_FORMAT: "json", LOG_LEVEL: "warn" };

function boot(): Promise<HeraldServer> {
  return startTestServer({ appDir: SAMPLE_APP, env: { ...development, DATABASE_URL: postgres.url }, logDestination: stream });
}

async function signingKeyIds(server: HeraldServer): Promise<string[]> {
  const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as { jwks_uri: string };
  const jwks = (await (await fetch(metadata.jwks_uri)).json()) as { keys: { kid: string }[] };
  return jwks.keys.map((key) => key.kid);
}

const storageOf = (server: HeraldServer) => (server.container.resolve(LOCAL_AUTHORIZATION_SERVER) as AuthorizationServer).storage;

test("a herald dev reload keeps the keys made for the process and the grants in process: what was issued stays valid, unwarned", async () => {
  const before = await boot();
  const kids = await signingKeyIds(before);
  const storage = storageOf(before);
  const after = await reloadKeeping(() => before.stop(), boot, (error) => {
    throw error;
  });
  try {
    expect(await signingKeyIds(after)).toEqual(kids);
    expect(storageOf(after)).toBe(storage);
    expect(lines.filter((line) => String(line.msg).includes("not set: the authorization server uses keys made for this process"))).toHaveLength(1);
  } finally {
    await after.stop();
  }
  // A stop outside a reload keeps nothing.
  expect(reclaimKept("herald:oauth")).toBeUndefined();
  const again = await boot();
  try {
    expect(await signingKeyIds(again)).not.toEqual(kids);
  } finally {
    await again.stop();
  }
});
