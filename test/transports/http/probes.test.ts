import { join } from "node:path";
import { createHerald, type HeraldServer } from "herald";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { TcpProxy } from "../../support/tcp-proxy";

/**
 * `GET /livez` and `GET /readyz` over real sockets: readiness follows the server's life and its
 * essential services, liveness only the process; neither is an action or in the OpenAPI document.
 */
const appDir = join(__dirname, "../../fixtures/apps/probes");
let redis: TcpProxy;
let server: HeraldServer;
let starting: Promise<HeraldServer>;

interface LateStart {
  release(): void;
}

beforeAll(async () => {
  redis = await TcpProxy.start({ host: "127.0.0.1", port: 6379 });
  server = createHerald({
    appDir,
    env: { ...process.env, NODE_ENV: "test", PORT: "0", LOG_LEVEL: "fatal", REDIS_URL: `redis://127.0.0.1:${redis.port}`, STATUS_CACHE_MS: "0" },
  });
  starting = server.start();
  await waitFor(() => server.url !== undefined);
}, HOOK_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  await redis?.close();
}, HOOK_TIMEOUT);

async function probe(path: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

test("while the server starts, /readyz is 503 and /livez is 200; once started, both are 200", async () => {
  expect(await probe("/readyz")).toMatchObject({ status: 503, body: { status: "unready", reason: "starting" } });
  expect(await probe("/livez")).toMatchObject({ status: 200, body: { status: "ok" } });
  (server.initializers.find((initializer) => initializer.name === "late-start") as unknown as LateStart).release();
  await starting;
  const ready = await probe("/readyz");
  expect(ready).toMatchObject({ status: 200, body: { status: "ok" } });
  expect(ready.headers.get("cache-control")).toBe("no-store");
  expect(ready.headers.get("content-type")).toBe("application/json; charset=utf-8");
});

test("HEAD answers without a body, a query string is ignored, other methods are 405 with Allow", async () => {
  const head = await fetch(`${server.url}/livez`, { method: "HEAD" });
  expect(head.status).toBe(200);
  expect(await head.text()).toBe("");
  expect((await probe("/readyz?verbose=1")).status).toBe(200);
  const post = await probe("/readyz", { method: "POST", body: "{}" });
  expect(post).toMatchObject({ status: 405, body: { status: "method not allowed" } });
  expect(post.headers.get("allow")).toBe("GET, HEAD");
});

test("with Redis down, /livez and /readyz stay 200: Redis's services are optional, status says degraded", async () => {
  redis.cut();
  try {
    await waitFor(async () => (await probe("/api/status")).body.status === "degraded");
    expect(await probe("/livez")).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(await probe("/readyz")).toMatchObject({ status: 200, body: { status: "ok" } });
  } finally {
    redis.restore();
  }
  await waitFor(async () => (await probe("/api/status")).body.status === "ok");
});

test("an essential service down makes /readyz 503 naming it, /livez stays 200", async () => {
  server.health.register("database", () => Promise.reject(new Error("connection refused")));
  try {
    expect(await probe("/readyz")).toMatchObject({ status: 503, body: { status: "unready", reason: "database is down" } });
    expect(await probe("/livez")).toMatchObject({ status: 200 });
  } finally {
    server.health.register("database", () => undefined);
  }
  expect((await probe("/readyz")).status).toBe(200);
});

test("the probes are at the site root only: not beneath the API prefix, not in the OpenAPI document, not actions", async () => {
  expect((await probe("/api/livez")).status).toBe(404);
  expect((await probe("/api/readyz")).status).toBe(404);
  const document = (await probe("/api/openapi.json")).body;
  expect(Object.keys(document.paths)).toContain("/api/ping");
  expect(JSON.stringify(document)).not.toMatch(/livez|readyz/);
  expect(server.registry.list().map((entry) => entry.name)).not.toEqual(expect.arrayContaining([expect.stringMatching(/livez|readyz/)]));
});
