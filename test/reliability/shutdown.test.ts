import { Agent } from "node:http";
import { join } from "node:path";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { HeraldProcess } from "./support/herald-process";
import { call } from "./support/http";
import { getOver, refusesConnections } from "./support/kept-alive";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "./support/shared-redis";
import { WsClient } from "./support/ws-client";

/** SIGTERM to a real `herald start` process while HTTP requests, WebSocket calls and jobs are in hand. */
const appDir = join(__dirname, "fixtures/app");
const name = uniqueAppName("shutdown");
const processes: HeraldProcess[] = [];

async function start(env: NodeJS.ProcessEnv = {}): Promise<HeraldProcess> {
  const herald = await HeraldProcess.start(appDir, { REDIS_URL: SHARED_REDIS_URL, NAME: name, TASKS_CONCURRENCY: "4", ...env });
  processes.push(herald);
  return herald;
}

afterAll(async () => {
  for (const herald of processes) await herald.kill();
  await deleteAppKeys(name);
}, HOOK_TIMEOUT);

test("on SIGTERM every accepted request, call and job in hand is answered, then the process exits 0", async () => {
  const herald = await start({ HTTP_SHUTDOWN_TIMEOUT: "60000", WS_SHUTDOWN_TIMEOUT: "60000", TASKS_STOP_TIMEOUT: "60000" });
  const api = `${herald.url}/api`;
  const busyMs = 1500;

  const httpCalls = Array.from({ length: 5 }, (_, index) => call(`${api}/slow?ms=${busyMs}&label=http-${index}`));
  const socket = await WsClient.open(herald.url);
  const wsCalls = Array.from({ length: 3 }, (_, index) => socket.call("slow:wait", { ms: busyMs, label: `ws-${index}` }));
  for (const label of ["job-0", "job-1"]) {
    expect((await call(`${api}/jobs`, { method: "POST", body: { action: "jobs:hold", params: { label, ms: busyMs } } })).status).toBe(200);
  }
  await herald.waitForLines("slow:wait started", 8);
  await herald.waitForLines("jobs:hold started", 2);

  herald.signal("SIGTERM");

  for (const [index, answer] of (await Promise.all(httpCalls)).entries()) {
    expect(answer).toMatchObject({ status: 200, body: { label: `http-${index}`, waited: busyMs } });
  }
  for (const [index, reply] of (await Promise.all(wsCalls)).entries()) {
    expect(reply).toMatchObject({ response: { label: `ws-${index}`, waited: busyMs } });
  }
  expect(await herald.exited).toBe(0);
  await socket.closed;
  const jobs = herald.lines("action", { action: "jobs:hold" });
  expect(jobs.map((line) => line.status)).toEqual([200, 200]);
  expect(herald.lines("jobs cut off by the stop; another worker will run them again")).toEqual([]);
});

test("a second SIGTERM forces the exit while the first is still waiting for work in hand", async () => {
  const herald = await start({ HTTP_SHUTDOWN_TIMEOUT: "600000" });
  const endless = call(`${herald.url}/api/slow?ms=600000&label=endless`);
  endless.catch(() => undefined);
  await herald.waitForLines("slow:wait started", 1);

  herald.signal("SIGTERM");
  await herald.waitForLines("stopping", 1);
  herald.signal("SIGTERM");

  expect(await herald.exited).toBe(1);
  expect(herald.lines("second signal: exiting now")).toHaveLength(1);
  // Forced: the request in hand is cut off rather than answered.
  await expect(endless).rejects.toThrow();
});

test("a request on an idle kept-alive socket after SIGTERM is answered 503 with Connection: close, not reset", async () => {
  const herald = await start({ HTTP_SHUTDOWN_TIMEOUT: "60000" });
  const api = `${herald.url}/api`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    expect(await getOver(agent, `${api}/slow?ms=0&label=first`)).toMatchObject({ status: 200, reusedSocket: false });
    const inFlight = call(`${api}/slow?ms=3000&label=in-flight`);
    await herald.waitForLines("slow:wait started", 1, { label: "in-flight" });

    herald.signal("SIGTERM");
    await waitFor(() => refusesConnections(herald.url), { timeout: 10_000 });

    expect(await getOver(agent, `${api}/slow?ms=0&label=late`)).toMatchObject({
      status: 503,
      connection: "close",
      reusedSocket: true,
      body: { error: { type: "CONNECTION_SERVICE_UNAVAILABLE", message: "The server is shutting down" } },
    });
    expect(await inFlight).toMatchObject({ status: 200, body: { label: "in-flight", waited: 3000 } });
    expect(await herald.exited).toBe(0);
    expect(herald.lines("slow:wait started", { label: "late" })).toEqual([]);
  } finally {
    agent.destroy();
  }
});

test("WebSocket calls in flight and sent after SIGTERM each get an answer to their messageId before the close frame", async () => {
  const herald = await start({ WS_SHUTDOWN_TIMEOUT: "1000" });
  const socket = await WsClient.open(herald.url);
  const answered = socket.call("slow:wait", { ms: 0, label: "answered" });
  const cutOff = socket.call("slow:wait", { ms: 600_000, label: "cut-off" });
  await herald.waitForLines("slow:wait started", 1, { label: "cut-off" });
  expect(await answered).toMatchObject({ response: { label: "answered" } });

  herald.signal("SIGTERM");
  await herald.waitForLines("stopping", 1);
  const late = socket.call("slow:wait", { ms: 0, label: "late" });

  const shuttingDown = { error: { type: "CONNECTION_SERVICE_UNAVAILABLE", message: "The server is shutting down" } };
  expect(await late).toMatchObject(shuttingDown);
  expect(await cutOff).toMatchObject(shuttingDown);
  expect(await socket.closed).toBe(1001);
  expect(await herald.exited).toBe(0);
  expect(herald.lines("slow:wait started", { label: "late" })).toEqual([]);
});
