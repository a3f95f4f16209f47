import type { HeraldServer } from "herald";
import { startTestServer } from "herald/testing";
import { HTTP_APP } from "./fixture";

const OTHER = "https://elsewhere.example.org";
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

async function withServer(corsOrigins: string | undefined, check: (url: string) => Promise<void>): Promise<void> {
  const server: HeraldServer = await startTestServer({
    appDir: HTTP_APP,
    env: corsOrigins === undefined ? { LOG_LEVEL: "fatal" } : { LOG_LEVEL: "fatal", HTTP_CORS_ORIGINS: corsOrigins },
  });
  try {
    await check(server.url!);
  } finally {
    await server.stop();
  }
}

const post = (url: string, headers: Record<string, string>, method = "POST") =>
  fetch(`${url}/api/echo${method === "PATCH" ? "/1" : ""}`, { method, headers: { ...FORM, ...headers }, body: "name=mallory" });

async function expectRefused(response: Response, origin: string): Promise<void> {
  expect(response.status).toBe(403);
  expect(await response.json()).toMatchObject({
    error: {
      message: "A cross-site request may not change anything: its origin is not allowed (HTTP_CORS_ORIGINS)",
      type: "CONNECTION_FORBIDDEN",
      key: "origin",
      value: origin,
    },
  });
}

test("a form POST or a PATCH from another site's page is refused with a typed 403, cookie or not", async () => {
  await withServer(undefined, async (url) => {
    await expectRefused(await post(url, { Origin: OTHER, Cookie: "herald.sid=anything" }), OTHER);
    await expectRefused(await post(url, { Origin: OTHER }), OTHER);
    await expectRefused(await post(url, { Origin: OTHER }, "PATCH"), OTHER);
    await expectRefused(await post(url, { Origin: "null" }), "null");
  });
});

test("without an Origin, Sec-Fetch-Site: cross-site is refused and same-origin or same-site passes", async () => {
  await withServer(undefined, async (url) => {
    await expectRefused(await post(url, { "Sec-Fetch-Site": "cross-site" }), "cross-site");
    expect((await post(url, { "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
    expect((await post(url, { "Sec-Fetch-Site": "same-site" })).status).toBe(200);
    expect((await post(url, { "Sec-Fetch-Site": "none" })).status).toBe(200);
  });
});

test("the server's own origin, a client without Origin (curl, a server) and every GET pass", async () => {
  await withServer(undefined, async (url) => {
    const own = await post(url, { Origin: url, "Sec-Fetch-Site": "same-origin" });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ params: { name: "mallory" } });
    expect((await post(url, {})).status).toBe(200);
    const read = await fetch(`${url}/api/echo?name=x`, { headers: { Origin: OTHER, "Sec-Fetch-Site": "cross-site" } });
    expect(read.status).toBe(200);
  });
});

test("an origin HTTP_CORS_ORIGINS lists by name may call with its cookies", async () => {
  await withServer(OTHER, async (url) => {
    expect((await post(url, { Origin: OTHER, Cookie: "herald.sid=anything" })).status).toBe(200);
    await expectRefused(await post(url, { Origin: "https://third.example.net" }), "https://third.example.net");
  });
});

test("the * wildcard admits any origin only without cookies, as CORS admits it only without credentials", async () => {
  await withServer("*", async (url) => {
    expect((await post(url, { Origin: OTHER })).status).toBe(200);
    await expectRefused(await post(url, { Origin: OTHER, Cookie: "herald.sid=anything" }), OTHER);
  });
});

test("a state-changing request from another site to a mount is refused too, unless the mount checks origins itself", async () => {
  await withServer(undefined, async (url) => {
    const hook = (path: string, headers: Record<string, string>, method = "POST") =>
      fetch(`${url}${path}`, { method, headers: { "Content-Type": "application/json", ...headers }, ...(method === "GET" ? {} : { body: "{}" }) });
    await expectRefused(await hook("/hooks", { Origin: OTHER, Cookie: "herald.sid=anything" }), OTHER);
    await expectRefused(await hook("/hooks/raw", { "Sec-Fetch-Site": "cross-site" }), "cross-site");
    expect((await hook("/hooks", { Origin: url })).status).toBe(200);
    expect((await hook("/hooks", {})).status).toBe(200);
    expect((await hook("/hooks", { Origin: OTHER }, "GET")).status).toBe(200);
    const selfChecked = await hook("/hooks/self-checked", { Origin: OTHER });
    expect(selfChecked.status).toBe(200);
    expect(await selfChecked.text()).toBe(`checked here: ${OTHER}`);
  });
});
