import { useTestServer, serverUrl, testServer } from "herald/testing";
import { HTTP_APP } from "./fixture";

// Taken before the server boots (useTestServer boots it in a beforeAll): a bound on its uptime.
const fileLoadedAt = performance.now();
useTestServer({ appDir: HTTP_APP, env: { LOG_LEVEL: "fatal", NAME: "fixture" } });

// The server is shared by the file: each test starts from the same services, whatever an earlier one registered.
beforeEach(() => {
  testServer().health.register("cache", () => undefined);
  testServer().health.register("database", () => undefined);
});

test("GET /api/status reports name, the app's version, uptime and healthy services", async () => {
  const response = await fetch(`${serverUrl()}/api/status`);
  expect(response.status).toBe(200);
  const status = await response.json();
  expect(status).toEqual({
    name: "fixture",
    version: "3.1.4",
    uptime: expect.any(Number),
    healthy: true,
    status: "ok",
    down: [],
    services: expect.objectContaining({ cache: { healthy: true, latencyMs: expect.any(Number) } }),
  });
  // Seconds since the server booted: more than nothing, less than since this file was loaded.
  expect(status.uptime).toBeGreaterThan(0);
  expect(status.uptime).toBeLessThanOrEqual((performance.now() - fileLoadedAt) / 1000);
});

test("a service that is down makes it 503 CONNECTION_SERVICE_UNAVAILABLE, whose value says which", async () => {
  testServer().health.register("database", () => {
    throw new Error("connection refused");
  });
  const response = await fetch(`${serverUrl()}/api/status`);
  expect(response.status).toBe(503);
  const { error } = await response.json();
  expect(error.type).toBe("CONNECTION_SERVICE_UNAVAILABLE");
  expect(error.message).toBe("Unavailable: database is down");
  expect(error.key).toBe("services");
  expect(error.value).toMatchObject({
    name: "fixture",
    version: "3.1.4",
    healthy: false,
    status: "down",
    down: ["database"],
    services: {
      cache: { healthy: true },
      database: { healthy: false, error: "connection refused" },
    },
  });
});

test("an optional service that is down makes it degraded: 200, naming which", async () => {
  testServer().health.register(
    "cache",
    () => {
      throw new Error("connection refused");
    },
    { essential: false },
  );
  const response = await fetch(`${serverUrl()}/api/status`);
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({
    healthy: true,
    status: "degraded",
    down: ["cache"],
    services: { cache: { healthy: false, optional: true, error: "connection refused" }, database: { healthy: true } },
  });
});

test("an essential service down beside an optional one: 503 naming only the essential one in its message", async () => {
  testServer().health.register("cache", () => Promise.reject(new Error("gone")), { essential: false });
  testServer().health.register("database", () => Promise.reject(new Error("gone")));
  const response = await fetch(`${serverUrl()}/api/status`);
  expect(response.status).toBe(503);
  const { error } = await response.json();
  expect(error.message).toBe("Unavailable: database is down");
  expect(error.value).toMatchObject({ healthy: false, status: "down", down: ["cache", "database"] });
});

test("an app can mark a service Herald registers as optional essential", async () => {
  testServer().health.register("cache", () => Promise.reject(new Error("gone")), { essential: false });
  testServer().health.setEssential("cache", true);
  const response = await fetch(`${serverUrl()}/api/status`);
  expect(response.status).toBe(503);
  expect((await response.json()).error.value.services.cache).toEqual({ healthy: false, error: "gone", latencyMs: expect.any(Number) });
});
