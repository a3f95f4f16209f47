import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type Redis from "ioredis";
import { HOOK_TIMEOUT } from "herald/testing";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL } from "../../support/redis";
import { HeraldProcess } from "../../support/herald-process";
import { TestSocket } from "./support/test-socket";

const appDir = join(__dirname, "../../fixtures/apps/websocket");
// NAME prefixes every Redis key and channel of the app: this run's processes share it, nobody else does.
const name = `herald-test-ws-cluster-${randomUUID().slice(0, 8)}`;
let redis: Redis;
let one: HeraldProcess;
let two: HeraldProcess;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  redis = await connectTestRedis();
  const env = { REDIS_URL: TEST_REDIS_URL, NAME: name, PRESENCE_TTL: "1000", SESSION_SECRET: "s".repeat(32) };
  [one, two] = await Promise.all([HeraldProcess.start(appDir, env), HeraldProcess.start(appDir, env)]);
}, HOOK_TIMEOUT);

afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.close()));
  await Promise.all([one?.stop(), two?.stop()]);
  await deleteKeys(redis, `${name}:`);
  await redis.quit();
}, HOOK_TIMEOUT);

async function open(server: HeraldProcess): Promise<TestSocket> {
  const socket = await TestSocket.open(server.wsUrl);
  sockets.push(socket);
  return socket;
}

test("the two servers are separate processes on separate ports", () => {
  expect(one.url).not.toBe(two.url);
});

test("a message published on one process reaches a socket on the other", async () => {
  const listener = await open(one);
  await listener.subscribe("lobby");
  const speaker = await open(two);
  expect((await speaker.action("ws:publish", { channel: "lobby", message: { from: "process two" } })).response).toEqual({ published: true });
  expect(await listener.published("lobby", { from: "process two" })).toEqual({
    messageType: "message",
    channel: "lobby",
    message: { from: "process two" },
  });
});

test("a logout on one process is seen by the next call of a socket on the other that keeps a call in flight", async () => {
  const login = await fetch(`${one.url}/api/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ user: "ada" }) });
  const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
  const socket = await TestSocket.open(two.wsUrl, { headers: { cookie } });
  sockets.push(socket);
  // Never opened: it stays in flight until the socket closes, as a busy socket always has a call out.
  void socket.action("ws:gate", { gate: "held-across-logout" });
  expect((await socket.action("ws:whoami")).response).toEqual({ user: "ada", hasSession: true });

  const logout = await fetch(`${one.url}/api/logout`, { method: "POST", headers: { cookie } });
  expect(logout.status).toBe(200);
  expect((await socket.action("ws:whoami")).response).toEqual({ user: null, hasSession: true });
});

test("presence is cluster-wide, and a process that dies leaves", async () => {
  const ada = await open(one);
  await ada.action("ws:identify", { name: "ada" });
  await ada.subscribe("room:cluster");
  const bob = await open(two);
  await bob.action("ws:identify", { name: "bob" });
  await bob.subscribe("room:cluster");

  await ada.next((message) => message.messageType === "presence" && message.event === "join" && message.presenceKey === "bob");
  expect((await ada.action("ws:present", { channel: "room:cluster" })).response).toEqual({ present: ["ada", "bob"] });

  await two.kill();
  expect(await ada.next((message) => message.messageType === "presence" && message.event === "leave")).toEqual({
    messageType: "presence",
    channel: "room:cluster",
    event: "leave",
    presenceKey: "bob",
  });
  expect((await ada.action("ws:present", { channel: "room:cluster" })).response).toEqual({ present: ["ada"] });
});
