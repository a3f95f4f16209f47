import { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer } from "herald/testing";
import { call } from "../../reliability/support/http";
import { HTTP_APP } from "./fixture";

/**
 * `GET /api/status` in production: anyone may call it, so it names the service that is down and
 * nothing of the driver's error; and a burst of calls shares one round of probes.
 */
let server: HeraldServer;
let status: string;

beforeAll(async () => {
  server = await startTestServer({
    appDir: HTTP_APP,
    // A period far longer than the test, so that every call below falls within the first round's.
    env: { NODE_ENV: "production", HOST: "127.0.0.1", LOG_LEVEL: "fatal", REDIS_URL: "", STATUS_CACHE_MS: "600000", SESSION_SECRET: "status-probes-test-secret-0123456789abcdef" },
  });
  status = `${server.url}/api/status`;
}, HOOK_TIMEOUT);

afterAll(() => server?.stop(), HOOK_TIMEOUT);

test("a service that is down is named, and the text of its error is not sent", async () => {
  server.health.register("cache", () => undefined);
  server.health.register("database", () => {
    throw new Error("connect ECONNREFUSED 10.1.2.3:5432 (user herald_admin)");
  });
  const answer = await call(status);
  expect(answer.status).toBe(503);
  expect(answer.body.error.message).toBe("Unavailable: database is down");
  expect(answer.body.error.value.services).toMatchObject({ cache: { healthy: true } });
  expect(answer.body.error.value.services.database).toEqual({ healthy: false, latencyMs: expect.any(Number) });
  expect(JSON.stringify(answer.body)).not.toMatch(/ECONNREFUSED|10\.1\.2\.3|5432|herald_admin/);
});

test("concurrent and rapid status calls cost each service one probe", async () => {
  let probes = 0;
  server.health.register("database", () => {
    probes += 1;
  });
  for (const answer of await Promise.all(Array.from({ length: 20 }, () => call(status)))) expect(answer.status).toBe(200);
  for (let index = 0; index < 10; index++) expect((await call(status)).status).toBe(200);
  expect(probes).toBe(1);
});
