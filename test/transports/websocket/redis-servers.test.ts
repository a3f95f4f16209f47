import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type Redis from "ioredis";
import { PUBSUB_DRIVER_TOKEN, SessionManager } from "herald";
import type { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer } from "herald/testing";
import { RedisPubSub } from "../../../src/channels/redis-pubsub";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL } from "../../support/redis";
import { TestSocket } from "./support/test-socket";

const appDir = join(__dirname, "../../fixtures/apps/websocket");
const name = `herald-test-ws-redis-${randomUUID().slice(0, 8)}`;
const env = { REDIS_URL: TEST_REDIS_URL, NAME: name, SESSION_SECRET: "r".repeat(32) };
let redis: Redis;
let first: HeraldServer;
let second: HeraldServer;

beforeAll(async () => {
  redis = await connectTestRedis();
  [first, second] = await Promise.all([startTestServer({ appDir, env }), startTestServer({ appDir, env })]);
}, HOOK_TIMEOUT);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await deleteKeys(redis, `${name}:`);
  await redis.quit();
}, HOOK_TIMEOUT);

const wsUrlOf = (server: HeraldServer) => `${server.url!.replace(/^http/, "ws")}/ws`;

test("with REDIS_URL the servers use the Redis pub/sub driver", () => {
  expect(first.container.resolve(PUBSUB_DRIVER_TOKEN)).toBeInstanceOf(RedisPubSub);
});

test("a session written on one server is the session of a socket opened on the other", async () => {
  const manager = first.container.resolve(SessionManager);
  const session = await manager.open();
  await session.set("user", "ada");
  const cookie = manager.cookie.serialize(session.id!).split(";")[0]!;
  const socket = await TestSocket.open(wsUrlOf(second), { headers: { cookie } });
  expect((await socket.action("ws:whoami")).response).toEqual({ user: "ada", hasSession: true });
  await socket.action("ws:remember", { user: "grace" });
  await socket.close();
  const reopened = await TestSocket.open(wsUrlOf(first), { headers: { cookie } });
  expect((await reopened.action("ws:whoami")).response.user).toBe("grace");
  await reopened.close();
});

test("a message published through one server reaches sockets on both", async () => {
  const here = await TestSocket.open(wsUrlOf(first));
  const there = await TestSocket.open(wsUrlOf(second));
  await here.subscribe("lobby");
  await there.subscribe("lobby");
  await here.action("ws:publish", { channel: "lobby", message: "to everyone" });
  await Promise.all([here.published("lobby", "to everyone"), there.published("lobby", "to everyone")]);
  await Promise.all([here.close(), there.close()]);
});
