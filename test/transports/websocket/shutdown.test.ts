import { join } from "node:path";
import { ErrorType, WS_CLOSE_CODE } from "herald";
import { HOOK_TIMEOUT, startTestServer } from "herald/testing";
import { gates } from "../../fixtures/apps/websocket/gates";
import { TestSocket } from "./support/test-socket";

const appDir = join(__dirname, "../../fixtures/apps/websocket");

test(
  "stop refuses new sockets and messages, lets the actions in flight finish, then closes with 1001",
  async () => {
    const server = await startTestServer({ appDir, env: { REDIS_URL: "" } });
    const url = `${server.url!.replace(/^http/, "ws")}/ws`;
    const socket = await TestSocket.open(url);
    const held = socket.request({ messageType: "action", messageId: "held", action: "ws:gate", params: { gate: "shutdown" } });
    await gates.entered("shutdown");

    const stopped = server.stop();
    const refusal = await TestSocket.refused(url);
    expect(refusal.status).toBe(503);
    expect(refusal.body.error.type).toBe(ErrorType.CONNECTION_SERVICE_UNAVAILABLE);
    const late = await socket.action("ws:echo", { text: "too late" });
    expect(late.error.type).toBe(ErrorType.CONNECTION_SERVICE_UNAVAILABLE);

    gates.open("shutdown");
    expect(await held).toEqual({ messageId: "held", response: { gate: "shutdown", outcome: "opened" } });
    expect((await socket.closed).code).toBe(WS_CLOSE_CODE.goingAway);
    await stopped;
  },
  HOOK_TIMEOUT,
);

test(
  "an action still running after WS_SHUTDOWN_TIMEOUT is aborted and the socket closed anyway",
  async () => {
    const server = await startTestServer({ appDir, env: { REDIS_URL: "", WS_SHUTDOWN_TIMEOUT: "100" } });
    const socket = await TestSocket.open(`${server.url!.replace(/^http/, "ws")}/ws`);
    socket.send({ messageType: "action", messageId: "stuck", action: "ws:gate", params: { gate: "never-opened" } });
    await gates.entered("never-opened");
    await server.stop();
    expect((await socket.closed).code).toBe(WS_CLOSE_CODE.goingAway);
    expect(await gates.settled("never-opened")).toMatchObject({
      outcome: "aborted",
      reason: { type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE },
    });
  },
  HOOK_TIMEOUT,
);

test(
  "stop waits for every action in flight on a socket, not only for the first to finish",
  async () => {
    const server = await startTestServer({ appDir, env: { REDIS_URL: "" } });
    const socket = await TestSocket.open(`${server.url!.replace(/^http/, "ws")}/ws`);
    const first = socket.request({ messageType: "action", messageId: "first", action: "ws:gate", params: { gate: "drain-first" } });
    const second = socket.request({ messageType: "action", messageId: "second", action: "ws:gate", params: { gate: "drain-second" } });
    await Promise.all([gates.entered("drain-first"), gates.entered("drain-second")]);

    const stopped = server.stop();
    gates.open("drain-first");
    expect(await first).toEqual({ messageId: "first", response: { gate: "drain-first", outcome: "opened" } });
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    gates.open("drain-second");
    expect(await second).toEqual({ messageId: "second", response: { gate: "drain-second", outcome: "opened" } });
    expect((await socket.closed).code).toBe(WS_CLOSE_CODE.goingAway);
    await stopped;
  },
  HOOK_TIMEOUT,
);

test(
  "stop waits for a subscribe in flight, and answers one that outlasts WS_SHUTDOWN_TIMEOUT before the close frame",
  async () => {
    const server = await startTestServer({ appDir, env: { REDIS_URL: "", WS_SHUTDOWN_TIMEOUT: "100" } });
    const socket = await TestSocket.open(`${server.url!.replace(/^http/, "ws")}/ws`);
    const answered = socket.request({ messageType: "subscribe", messageId: "sub-stuck", channel: "gated:never-opened" });
    await gates.entered("gated:never-opened");

    await server.stop();
    const answer = await answered;
    expect(answer.error.type).toBe(ErrorType.CONNECTION_SERVICE_UNAVAILABLE);
    expect((await socket.closed).code).toBe(WS_CLOSE_CODE.goingAway);
  },
  HOOK_TIMEOUT,
);

test(
  "a subscribe that finishes within the grace period is answered subscribed before the close",
  async () => {
    const server = await startTestServer({ appDir, env: { REDIS_URL: "" } });
    const socket = await TestSocket.open(`${server.url!.replace(/^http/, "ws")}/ws`);
    const answered = socket.request({ messageType: "subscribe", messageId: "sub-late", channel: "gated:shutdown-sub" });
    await gates.entered("gated:shutdown-sub");

    const stopped = server.stop();
    gates.open("gated:shutdown-sub");
    expect(await answered).toEqual({ messageId: "sub-late", subscribed: { channel: "gated:shutdown-sub" } });
    expect((await socket.closed).code).toBe(WS_CLOSE_CODE.goingAway);
    await stopped;
  },
  HOOK_TIMEOUT,
);
