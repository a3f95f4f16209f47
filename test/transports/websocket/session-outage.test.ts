import { join } from "node:path";
import type Redis from "ioredis";
import { ErrorType, SESSION_STORE_TOKEN, SessionManager } from "herald";
import type { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { RedisSessionStore } from "../../../src/sessions/redis-store";
import { connectTestRedis, deleteKeys, uniquePrefix } from "../../support/redis";
import { TcpProxy } from "../../support/tcp-proxy";
import { TestSocket } from "./support/test-socket";

const appDir = join(__dirname, "../../fixtures/apps/websocket");
const prefix = uniquePrefix("ws-session-outage");
let redis: Redis;
let proxy: TcpProxy;
let store: RedisSessionStore;
let server: HeraldServer;

beforeAll(async () => {
  redis = await connectTestRedis();
  proxy = await TcpProxy.start({ host: "127.0.0.1", port: 6379 });
  store = new RedisSessionStore({ url: `redis://127.0.0.1:${proxy.port}`, prefix });
  await store.connect();
  server = await startTestServer({ appDir, env: { REDIS_URL: "" }, providers: [{ token: SESSION_STORE_TOKEN, useValue: store }] });
}, HOOK_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  await store?.close();
  await proxy?.close();
  await deleteKeys(redis, prefix);
  await redis.quit();
}, HOOK_TIMEOUT);

test(
  "a socket opened while the session store is down reads its session once the store is back",
  async () => {
    const manager = server.container.resolve(SessionManager);
    const session = await manager.open();
    await session.set("user", "ada");
    const cookie = manager.cookie.serialize(session.id!).split(";")[0]!;

    proxy.cut();
    const socket = await TestSocket.open(`${server.url!.replace(/^http/, "ws")}/ws`, { headers: { cookie } });
    try {
      expect((await socket.action("ws:whoami")).error).toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
      proxy.restore();
      await waitFor(async () => (await socket.action("ws:whoami")).response?.user === "ada", { timeout: 20_000 });
    } finally {
      await socket.close();
    }
  },
  HOOK_TIMEOUT,
);
