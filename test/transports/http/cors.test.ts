import type { HeraldServer } from "herald";
import { startTestServer } from "herald/testing";
import { HTTP_APP } from "./fixture";

const TRUSTED = "https://app.example.com";
const OTHER = "https://elsewhere.example.org";

async function withServer(corsOrigins: string | undefined, check: (url: string) => Promise<void>): Promise<void> {
  const server: HeraldServer = await startTestServer({
    appDir: HTTP_APP,
    env: corsOrigins === undefined ? { LOG_LEVEL: "fatal" } : { LOG_LEVEL: "fatal", HTTP_CORS_ORIGINS: corsOrigins },
  });
  try {
    await check(`${server.url}/api`);
  } finally {
    await server.stop();
  }
}

const preflight = (url: string, origin: string) =>
  fetch(`${url}/echo`, {
    method: "OPTIONS",
    headers: { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" },
  });

test("by default no origin is allowed: no CORS headers, and a preflight gets only the Allow answer", async () => {
  await withServer(undefined, async (url) => {
    const response = await fetch(`${url}/small`, { headers: { Origin: TRUSTED } });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const answer = await preflight(url, TRUSTED);
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    expect(answer.headers.get("allow")).toBe("POST, GET, HEAD, OPTIONS");
  });
});

test("a listed origin is allowed with credentials, and may read X-Request-Id and Idempotent-Replayed", async () => {
  await withServer(`${TRUSTED}, https://admin.example.com`, async (url) => {
    const response = await fetch(`${url}/small`, { headers: { Origin: TRUSTED } });
    expect(response.headers.get("access-control-allow-origin")).toBe(TRUSTED);
    expect(response.headers.get("access-control-allow-credentials")).toBe("true");
    expect(response.headers.get("access-control-expose-headers")).toBe("X-Request-Id,Idempotent-Replayed");
    expect(response.headers.get("vary")).toMatch(/Origin/);

    const answer = await preflight(url, TRUSTED);
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(TRUSTED);
    expect(answer.headers.get("access-control-allow-credentials")).toBe("true");
    expect(answer.headers.get("access-control-allow-methods")).toContain("POST");
    expect(answer.headers.get("access-control-allow-headers")).toBe("content-type");
    expect(answer.headers.get("access-control-max-age")).toBe("600");
  });
});

test("an origin that is not listed gets no CORS headers", async () => {
  await withServer(TRUSTED, async (url) => {
    const response = await fetch(`${url}/small`, { headers: { Origin: OTHER } });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const answer = await preflight(url, OTHER);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });
});

test("* allows any origin but never with credentials; listed origins keep theirs", async () => {
  await withServer(`*,${TRUSTED}`, async (url) => {
    const anyone = await fetch(`${url}/small`, { headers: { Origin: OTHER } });
    expect(anyone.headers.get("access-control-allow-origin")).toBe("*");
    expect(anyone.headers.get("access-control-allow-credentials")).toBeNull();
    const anyonePreflight = await preflight(url, OTHER);
    expect(anyonePreflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(anyonePreflight.headers.get("access-control-allow-credentials")).toBeNull();

    const trusted = await fetch(`${url}/small`, { headers: { Origin: TRUSTED } });
    expect(trusted.headers.get("access-control-allow-origin")).toBe(TRUSTED);
    expect(trusted.headers.get("access-control-allow-credentials")).toBe("true");
  });
});

test("an invalid HTTP_CORS_ORIGINS fails the boot, naming the variable", async () => {
  await expect(
    startTestServer({ appDir: HTTP_APP, env: { LOG_LEVEL: "fatal", HTTP_CORS_ORIGINS: "https://app.example.com/path" } }),
  ).rejects.toMatchObject({ type: "CONFIG_ERROR", key: "HTTP_CORS_ORIGINS" });
});
