import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { ChannelPresence, ErrorType, HeraldServer, TaskService } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { gate, ledger } from "./fixtures/app/lib/ledger";
import { call } from "./support/http";
import { OwnRedis } from "./support/own-redis";
import { WsClient } from "./support/ws-client";

/**
 * Redis goes away in the middle of a run and comes back: a redis-server of this file alone is
 * killed and started again on the same port (the machine's shared Redis is never touched).
 */
const appDir = join(__dirname, "fixtures/app");
const queuedBefore = Array.from({ length: 10 }, (_, index) => `queued-${index}`);

let redis: OwnRedis;
let server: HeraldServer;
let socket: WsClient;
let url: string;
/** The presence key the first socket joined the lobby under. */
let lobbyKey: string;

beforeAll(async () => {
  redis = await OwnRedis.start();
  server = await startTestServer({
    appDir,
    env: {
      REDIS_URL: redis.url,
      NAME: `reliability-${randomUUID().slice(0, 8)}`,
      TASKS_CONCURRENCY: "1",
      TASKS_STALL_INTERVAL: "1000",
      TASKS_BACKOFF_MS: "100",
      LOG_LEVEL: "fatal",
    },
  });
  url = `${server.url}/api`;
  socket = await WsClient.open(server.url!);
}, HOOK_TIMEOUT);

afterAll(async () => {
  gate.open();
  await socket?.close();
  await server?.stop();
  await redis?.destroy();
}, HOOK_TIMEOUT);

const enqueue = (params: Record<string, unknown>, action = "jobs:record") => call(`${url}/jobs`, { method: "POST", body: { action, params } });

test("before the outage: a subscriber hears a publish, and jobs queue up behind a held one", async () => {
  expect(await socket.request({ messageType: "subscribe", channel: "news" })).toMatchObject({ subscribed: { channel: "news" } });
  const heard = socket.next((message) => message.messageType === "message" && message.message === "before");
  expect((await call(`${url}/publish`, { method: "POST", body: { channel: "news", message: "before" } })).status).toBe(200);
  await heard;

  const joined = socket.next((message) => message.messageType === "presence" && message.event === "join");
  expect(await socket.request({ messageType: "subscribe", channel: "lobby" })).toMatchObject({ subscribed: { channel: "lobby" } });
  lobbyKey = (await joined).presenceKey as string;
  expect(await server.container.resolve(ChannelPresence).members("lobby")).toEqual([lobbyKey]);

  gate.close();
  expect((await enqueue({ label: "held", gated: true })).status).toBe(200);
  const tasks = server.container.resolve(TaskService);
  await waitFor(async () => (await tasks.stats("work")).work!.active === 1);
  for (const label of queuedBefore) expect((await enqueue({ label })).status).toBe(200);
  expect((await tasks.stats("work")).work!.waiting).toBe(queuedBefore.length);
});

test("while Redis is down: what needs no Redis answers, what needs it answers 503 at once, and status reports it degraded", async () => {
  await redis.crash();

  expect(await call(`${url}/plain?text=still-here`)).toMatchObject({ status: 200, body: { text: "still-here" } });
  expect(await socket.call("plain:echo", { text: "ws-too" })).toMatchObject({ response: { text: "ws-too" } });

  for (const answer of [
    await call(`${url}/session/count`, { method: "POST" }),
    await enqueue({ label: "during" }),
    // The first enqueue ever on this queue: its producer cannot connect.
    await enqueue({ label: "never-queued" }, "jobs:elsewhere"),
    await call(`${url}/publish`, { method: "POST", body: { channel: "news", message: "lost" } }),
  ]) {
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
  }

  // Every Redis service is optional: public reads still work, so the server is degraded, not down.
  const status = await call(`${url}/status`);
  expect(status.status).toBe(200);
  expect(status.body).toMatchObject({
    healthy: true,
    status: "degraded",
    services: { redis: { healthy: false, optional: true }, channels: { healthy: false, optional: true }, queue: { healthy: false, optional: true } },
  });
  expect([...status.body.down].sort()).toEqual(["channels", "queue", "redis"]);
});

test("when Redis returns: everything recovers by itself and every queued job is processed", async () => {
  await redis.resume();
  await waitFor(async () => (await call(`${url}/status`)).body.status === "ok", { timeout: 30_000, interval: 200 });

  expect(await call(`${url}/session/count`, { method: "POST" })).toMatchObject({ status: 200, body: { count: 1 } });
  // The queue's own connections come back on their own schedule (within seconds).
  await waitFor(async () => (await enqueue({ label: "after" })).status === 200, { timeout: 10_000, interval: 100 });
  await waitFor(async () => (await enqueue({ label: "elsewhere-after" }, "jobs:elsewhere")).status === 200, { timeout: 10_000, interval: 100 });

  gate.open();
  const expected = ["held", ...queuedBefore, "after", "elsewhere-after"];
  await waitFor(() => expected.every((label) => ledger.includes(label)), { timeout: 30_000, interval: 100 });

  const heard = socket.next((message) => message.messageType === "message" && message.message === "after");
  await waitFor(async () => (await call(`${url}/publish`, { method: "POST", body: { channel: "news", message: "after" } })).status === 200);
  await heard;

  // Presence works again: a socket that joins now is announced to the one present from before.
  const newcomer = await WsClient.open(server.url!);
  try {
    const announced = socket.next((message) => message.messageType === "presence" && message.event === "join" && message.presenceKey !== lobbyKey);
    expect(await newcomer.request({ messageType: "subscribe", channel: "lobby" })).toMatchObject({ subscribed: { channel: "lobby" } });
    const newcomerKey = (await announced).presenceKey as string;
    const presence = server.container.resolve(ChannelPresence);
    await waitFor(async () => (await presence.members("lobby")).sort().join() === [lobbyKey, newcomerKey].sort().join());
  } finally {
    await newcomer.close();
  }
});
