import { join } from "node:path";
import { ErrorType, SessionManager } from "herald";
import { HOOK_TIMEOUT, serverUrl, startTestServer, testServer, useTestServer } from "herald/testing";
import type { HeraldServer } from "herald";
import { TestSocket, wsUrl } from "./support/test-socket";

const appDir = join(__dirname, "../../fixtures/apps/websocket");
useTestServer({ appDir, env: { REDIS_URL: "", WS_ALLOWED_ORIGINS: "https://app.example.com" } });

/** A session in the server's store holding `data`, and the Cookie header that names it. */
async function loggedInCookie(server: HeraldServer, data: Record<string, unknown>): Promise<string> {
  const manager = server.container.resolve(SessionManager);
  const session = await manager.open();
  for (const [key, value] of Object.entries(data)) await session.set(key, value);
  return manager.cookie.serialize(session.id!).split(";")[0]!;
}

describe("the Origin check", () => {
  test("a page of another origin is refused with 403 and the error body", async () => {
    const refusal = await TestSocket.refused(wsUrl(), { origin: "https://evil.example.com" });
    expect(refusal.status).toBe(403);
    expect(refusal.body.error).toMatchObject({ type: ErrorType.CONNECTION_FORBIDDEN, key: "origin" });
  });

  test("the server's own origin, a listed origin and a client sending no Origin are accepted", async () => {
    for (const origin of [serverUrl(), "https://app.example.com", undefined]) {
      const socket = await TestSocket.open(wsUrl(), origin ? { origin } : {});
      expect((await socket.action("ws:echo", { text: "ok" })).response.text).toBe("ok");
      await socket.close();
    }
  });

  test("an origin allowed only by * gets a socket without the user's session", async () => {
    const server = await startTestServer({ appDir, env: { REDIS_URL: "", WS_ALLOWED_ORIGINS: "*" } });
    try {
      const cookie = await loggedInCookie(server, { user: "ada" });
      const url = `${server.url!.replace(/^http/, "ws")}/ws`;
      const foreign = await TestSocket.open(url, { origin: "https://elsewhere.example", headers: { cookie } });
      expect((await foreign.action("ws:whoami")).response).toEqual({ user: null, hasSession: true });
      await foreign.close();
      const own = await TestSocket.open(url, { origin: server.url!, headers: { cookie } });
      expect((await own.action("ws:whoami")).response).toEqual({ user: "ada", hasSession: true });
      await own.close();
    } finally {
      await server.stop();
    }
  }, HOOK_TIMEOUT);
});

describe("other upgrade paths", () => {
  test("an upgrade elsewhere than WS_PATH is refused with 404", async () => {
    expect((await TestSocket.refused(wsUrl("/elsewhere"))).status).toBe(404);
  });

  test("WS_PATH moves the endpoint", async () => {
    const server = await startTestServer({ appDir, env: { REDIS_URL: "", WS_PATH: "/live/socket" } });
    try {
      const base = server.url!.replace(/^http/, "ws");
      const socket = await TestSocket.open(`${base}/live/socket?client=test`);
      expect((await socket.action("ws:echo", { text: "moved" })).response.text).toBe("moved");
      await socket.close();
      expect((await TestSocket.refused(`${base}/ws`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  }, HOOK_TIMEOUT);
});

describe("the session", () => {
  test("a socket opened with the session cookie has that session", async () => {
    const cookie = await loggedInCookie(testServer(), { user: "ada" });
    const socket = await TestSocket.open(wsUrl(), { headers: { cookie } });
    expect((await socket.action("ws:whoami")).response).toEqual({ user: "ada", hasSession: true });
    await socket.close();
  });

  test("the upgrade response sends the cookie again, its Max-Age restarted with the session's TTL", async () => {
    const cookie = await loggedInCookie(testServer(), { user: "ada" });
    const socket = await TestSocket.open(wsUrl(), { headers: { cookie } });
    const [setCookie] = socket.upgradeHeaders["set-cookie"] as string[];
    expect(setCookie).toContain(cookie);
    expect(setCookie).toMatch(/Max-Age=\d+/);
    expect(setCookie).toMatch(/HttpOnly/);
    await socket.close();
  });

  test("a socket without a cookie is anonymous; a cookie with a bad signature is ignored and cleared", async () => {
    const anonymous = await TestSocket.open();
    expect((await anonymous.action("ws:whoami")).response).toEqual({ user: null, hasSession: true });
    await anonymous.close();

    const forged = `herald.sid=${encodeURIComponent("someone-elses-id.bad-signature")}`;
    const socket = await TestSocket.open(wsUrl(), { headers: { cookie: forged } });
    expect((socket.upgradeHeaders["set-cookie"] as string[])[0]).toMatch(/^herald\.sid=;/);
    expect((await socket.action("ws:whoami")).response).toEqual({ user: null, hasSession: true });
    await socket.close();
  });

  test("a socket without a cookie gets its session from its first write and keeps it; another socket does not see it", async () => {
    const socket = await TestSocket.open();
    expect((await socket.action("ws:remember", { user: "grace" })).response.user).toBe("grace");
    expect((await socket.action("ws:whoami")).response).toEqual({ user: "grace", hasSession: true });
    const other = await TestSocket.open();
    expect((await other.action("ws:whoami")).response).toEqual({ user: null, hasSession: true });
    await Promise.all([socket.close(), other.close()]);
  });

  test("what the socket writes to its session is seen by the next connection with the cookie", async () => {
    const cookie = await loggedInCookie(testServer(), { user: "ada" });
    const first = await TestSocket.open(wsUrl(), { headers: { cookie } });
    await first.action("ws:remember", { user: "grace" });
    await first.close();
    const second = await TestSocket.open(wsUrl(), { headers: { cookie } });
    expect((await second.action("ws:whoami")).response.user).toBe("grace");
    await second.close();
  });

  test("a session destroyed elsewhere (a logout) leaves the open socket anonymous", async () => {
    const manager = testServer().container.resolve(SessionManager);
    const cookie = await loggedInCookie(testServer(), { user: "ada" });
    const socket = await TestSocket.open(wsUrl(), { headers: { cookie } });
    expect((await socket.action("ws:whoami")).response.user).toBe("ada");
    const elsewhere = await manager.fromCookieHeader(cookie);
    await elsewhere.destroy();
    expect((await socket.action("ws:whoami")).response).toEqual({ user: null, hasSession: true });
    await socket.close();
  });

  test("an open socket sees what another connection wrote to the session since it opened", async () => {
    const cookie = await loggedInCookie(testServer(), { user: "ada" });
    const socket = await TestSocket.open(wsUrl(), { headers: { cookie } });
    const other = await TestSocket.open(wsUrl(), { headers: { cookie } });
    await other.action("ws:remember", { user: "hopper" });
    expect((await socket.action("ws:whoami")).response.user).toBe("hopper");
    await Promise.all([socket.close(), other.close()]);
  });
});

describe("the upgrade's headers", () => {
  test("are the socket's connection.headers, but for the handshake's own", async () => {
    const socket = await TestSocket.open(wsUrl(), { headers: { "x-api-key": "key-1", "user-agent": "herald-test" } });
    const { headers } = (await socket.action("ws:headers")).response as { headers: Record<string, string> };
    expect(headers).toMatchObject({ "x-api-key": "key-1", "user-agent": "herald-test", host: expect.any(String) });
    for (const handshake of ["connection", "upgrade", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions"]) {
      expect(headers).not.toHaveProperty(handshake);
    }
    await socket.close();
  });
});
