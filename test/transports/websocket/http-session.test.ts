import { join } from "node:path";
import { serverUrl, useTestServer } from "herald/testing";
import { TestSocket, wsUrl } from "./support/test-socket";
import { gates } from "../../fixtures/apps/websocket/gates";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/websocket"), env: { REDIS_URL: "" } });

async function post(path: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${serverUrl()}/api${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

test("a user logged in over HTTP is logged in on a socket opened with the cookie; a logout over HTTP logs the socket out", async () => {
  const login = await post("/login", { user: "ada" });
  expect(login.status).toBe(200);
  const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;

  const socket = await TestSocket.open(wsUrl(), { headers: { cookie } });
  expect((await socket.action("ws:whoami")).response).toEqual({ user: "ada", hasSession: true });

  expect((await post("/logout", {}, cookie)).status).toBe(200);
  expect((await socket.action("ws:whoami")).response).toEqual({ user: null, hasSession: true });
  await socket.close();
});

test("a logout over HTTP is seen by the next call of a socket that keeps other calls in flight", async () => {
  const login = await post("/login", { user: "ada" });
  const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
  const socket = await TestSocket.open(wsUrl(), { headers: { cookie } });
  // Held in flight across the logout, as a busy socket always has a call out.
  const held = socket.action("ws:gate", { gate: "busy-socket" });
  await gates.entered("busy-socket");
  expect((await socket.action("ws:whoami")).response).toEqual({ user: "ada", hasSession: true });

  expect((await post("/logout", {}, cookie)).status).toBe(200);
  expect((await socket.action("ws:whoami")).response).toEqual({ user: null, hasSession: true });
  gates.open("busy-socket");
  expect((await held).response).toMatchObject({ gate: "busy-socket", outcome: "opened" });
  await socket.close();
});
