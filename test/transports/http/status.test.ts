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
    services: {
      cache: { healthy: true },
      database: { healthy: false, error: "connection refused" },
    },
  });
});
