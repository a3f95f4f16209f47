import { join } from "node:path";
import { serverUrl, useTestServer } from "herald/testing";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/http-sessions") });

const call = (method: string, path: string, cookie?: string, body?: unknown) =>
  fetch(`${serverUrl()}/api${path}`, {
    method,
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...(body ? { "Content-Type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

function cookieOf(response: Response): string {
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

test("an anonymous request that writes nothing creates no session and sets no cookie", async () => {
  const response = await call("GET", "/whoami");
  expect(response.status).toBe(401);
  expect(response.headers.get("set-cookie")).toBeNull();
});

test("logging in sets a signed HttpOnly SameSite=Lax cookie that later requests carry", async () => {
  const login = await call("PUT", "/login", undefined, { name: "ada" });
  expect(login.status).toBe(200);
  const setCookie = login.headers.get("set-cookie")!;
  expect(setCookie).toMatch(/^herald\.sid=/);
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
  expect(setCookie).not.toMatch(/Secure/i);
  const whoami = await call("GET", "/whoami", cookieOf(login));
  expect(await whoami.json()).toEqual({ user: "ada" });
});

test("logging in again rotates the session id; the old id no longer works", async () => {
  const first = cookieOf(await call("PUT", "/login", undefined, { name: "ada" }));
  const second = cookieOf(await call("PUT", "/login", first, { name: "bob" }));
  expect(second).not.toBe(first);
  expect(await (await call("GET", "/whoami", second)).json()).toEqual({ user: "bob" });
  expect((await call("GET", "/whoami", first)).status).toBe(401);
});

test("logging out clears the cookie and ends the session", async () => {
  const cookie = cookieOf(await call("PUT", "/login", undefined, { name: "ada" }));
  const logout = await call("POST", "/logout", cookie);
  expect(logout.headers.get("set-cookie")).toMatch(/herald\.sid=;|Max-Age=0|Expires=Thu, 01 Jan 1970/);
  expect((await call("GET", "/whoami", cookie)).status).toBe(401);
});

test("a tampered cookie is anonymous and cleared", async () => {
  const cookie = cookieOf(await call("PUT", "/login", undefined, { name: "ada" }));
  const tampered = `${cookie.slice(0, -3)}xyz`;
  const response = await call("GET", "/whoami", tampered);
  expect(response.status).toBe(401);
  expect(response.headers.get("set-cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
});
