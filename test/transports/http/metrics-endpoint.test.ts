import { join } from "node:path";
import { ErrorType, RUN_MODE, type HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer } from "herald/testing";
import { freePort } from "../../support/free-port";

const BASIC_APP = join(__dirname, "../../fixtures/apps/basic");
const TOKEN = "a-scraper-token-of-some-length";
let server: HeraldServer | undefined;

async function boot(env: NodeJS.ProcessEnv, runMode: RUN_MODE = RUN_MODE.server): Promise<HeraldServer> {
  server = await startTestServer({ appDir: BASIC_APP, runMode, env: { LOG_LEVEL: "fatal", REDIS_URL: "", ...env } });
  return server;
}

afterEach(async () => {
  await server?.stop();
  server = undefined;
}, HOOK_TIMEOUT);

const basic = (credential: string) => `Basic ${Buffer.from(credential).toString("base64")}`;

test("with a token set, /metrics refuses a request without it (401, WWW-Authenticate, the error body) and answers with it", async () => {
  const { url } = await boot({ METRICS_TOKEN: TOKEN, METRICS_BASIC_AUTH: "prometheus:a password" });
  for (const authorization of [undefined, "Bearer wrong-token-of-some-length", basic("prometheus:wrong"), basic("other:a password")]) {
    const refused = await fetch(`${url}/metrics`, { headers: authorization ? { authorization } : {} });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics", Basic realm="metrics"');
    expect(((await refused.json()) as { error: { type: string } }).error.type).toBe(ErrorType.CONNECTION_NOT_AUTHENTICATED);
  }
  for (const authorization of [`Bearer ${TOKEN}`, basic("prometheus:a password")]) {
    const answered = await fetch(`${url}/metrics`, { headers: { authorization } });
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain("target_info");
  }
});

test("METRICS=false: nothing is served at /metrics (404) and nothing is recorded", async () => {
  const off = await boot({ METRICS: "false" });
  expect(off.metrics.meter).toBeUndefined();
  const response = await fetch(`${off.url}/metrics`);
  expect(response.status).toBe(404);
  expect(((await response.json()) as { error: { type: string } }).error.type).toBe(ErrorType.CONNECTION_NOT_FOUND);
});

test("in production /metrics answers only with its credential, or when made public on purpose; otherwise 404", async () => {
  const production = { NODE_ENV: "production", HOST: "127.0.0.1", SESSION_SECRET: "s".repeat(32) };
  let booted = await boot(production);
  expect((await fetch(`${booted.url}/metrics`)).status).toBe(404);
  expect(booted.metrics.meter).toBeUndefined();
  await booted.stop();

  booted = await boot({ ...production, METRICS_TOKEN: TOKEN });
  expect((await fetch(`${booted.url}/metrics`)).status).toBe(401);
  expect((await fetch(`${booted.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  await booted.stop();

  booted = await boot({ ...production, METRICS_PUBLIC: "true" });
  expect((await fetch(`${booted.url}/metrics`)).status).toBe(200);
});

test("a token too short, or a Basic credential without its password, fails the boot", async () => {
  await expect(boot({ METRICS_TOKEN: "short" })).rejects.toMatchObject({ type: ErrorType.CONFIG_ERROR, key: "METRICS_TOKEN" });
  await expect(boot({ METRICS_BASIC_AUTH: "prometheus" })).rejects.toMatchObject({ type: ErrorType.CONFIG_ERROR, key: "METRICS_BASIC_AUTH" });
});

test("a workers-only process serves /metrics and the probes on METRICS_PORT, and 404 elsewhere", async () => {
  const port = await freePort();
  await boot({ METRICS_PORT: String(port) }, RUN_MODE.workers);
  const answered = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(answered.status).toBe(200);
  expect(await answered.text()).toContain("v8js_memory_heap_used");
  expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { status: "ok" } });
  expect((await fetch(`http://127.0.0.1:${port}/api/greet`)).status).toBe(404);
});

test("in production without a credential, a workers-only process's port still serves the probes, and /metrics is 404", async () => {
  const port = await freePort();
  await boot({ METRICS_PORT: String(port), NODE_ENV: "production", HOST: "127.0.0.1", SESSION_SECRET: "s".repeat(32) }, RUN_MODE.workers);
  expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
});
