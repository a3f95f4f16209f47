import { join } from "node:path";
import { ErrorType, HeraldServer, TaskService, type WatchedJob } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { Gates } from "../../fixtures/apps/tasks-watch/services/gates";
import { EventStreamReader } from "../../support/event-stream";
import { TestSocket } from "../websocket/support/test-socket";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";

const appDir = join(__dirname, "../../fixtures/apps/tasks-watch");
const END = { event: "end", data: {} };

async function post(url: string, body: object): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

async function watch(server: HeraldServer, handle: string): Promise<EventStreamReader> {
  const response = await fetch(`${server.url}/api/jobs/${handle}/events`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  return new EventStreamReader(response);
}

/** The values of a stream's events, its closing `end` event left out (and checked). */
async function valuesToTheEnd(events: EventStreamReader): Promise<any[]> {
  const rest = await events.rest();
  expect(rest.at(-1)).toEqual(END);
  return rest.slice(0, -1).map((event) => {
    expect(event.event).toBe("message");
    return event.data;
  });
}

describe.each(["memory", "redis"] as const)("watching jobs on the %s driver", (driver) => {
  const prefix = uniquePrefix(`tasks-watch-${driver}`);
  const gates = new Gates();
  let server: HeraldServer;
  let tasks: TaskService;

  beforeAll(async () => {
    server = await startTestServer({
      appDir,
      providers: [{ token: Gates, useValue: gates }],
      env: {
        REDIS_URL,
        TASKS_DRIVER: driver,
        CHANNELS_DRIVER: driver,
        CHANNELS_PREFIX: `${prefix}:channels:`,
        TASKS_PREFIX: prefix,
        TASKS_RETRIES: "0",
        LOG_LEVEL: "fatal",
      },
    });
    tasks = server.container.resolve(TaskService);
  }, HOOK_TIMEOUT);

  afterAll(async () => {
    await server?.stop();
    await deleteKeys(prefix);
  }, HOOK_TIMEOUT);

  const start = async (label: string, steps: number): Promise<WatchedJob> => {
    const response = await post(`${server.url}/api/jobs/start`, { label, steps });
    expect(response.status).toBe(200);
    return (await response.json()) as WatchedJob;
  };

  test("over HTTP, the caller that queued a job gets its progress and then its result, as Server-Sent Events", async () => {
    const label = `sse-${driver}`;
    const { jobId, queue, handle } = await start(label, 3);
    expect(queue).toBe("watch");
    const events = await watch(server, handle);
    // Subscribed, then read: the job waits at its gate.
    expect(await events.next()).toEqual({ event: "message", data: { type: "status", status: expect.stringMatching(/^(waiting|active)$/), attempts: 0 } });
    gates.open(label);
    const values = await valuesToTheEnd(events);
    expect(values.at(-1)).toEqual({ type: "completed", result: { label, steps: 3 } });
    const progress = values.slice(0, -1);
    // A report not read yet gives way to the next one; the last always arrives, and none goes back.
    expect(progress.every((value) => value.type === "progress")).toBe(true);
    expect(progress.at(-1)).toEqual({ type: "progress", progress: 3, total: 3, message: "step 3" });
    const steps = progress.map((value) => value.progress as number);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect((await tasks.getJob(queue, jobId))?.status).toBe("succeeded");
  });

  test("over WebSocket (a real ws client), the same events come as chunk messages, the outcome last", async () => {
    const label = `ws-${driver}`;
    const socket = await TestSocket.open(`${server.url!.replace(/^http/, "ws")}/ws`);
    try {
      const started = await socket.action("jobs:start", { label, steps: 2 });
      const { handle } = started.response as WatchedJob;
      const messageId = `watch-${label}`;
      const first = socket.next((message) => message.messageId === messageId && "chunk" in message);
      const end = socket.next((message) => message.messageId === messageId && "response" in message);
      socket.send({ messageType: "action", action: "tasks:watch", messageId, params: { handle } });
      expect((await first).chunk).toMatchObject({ type: "status", attempts: 0 });
      gates.open(label);
      expect((await end).response).toBeNull();
      const chunks = socket.received.filter((message) => message.messageId === messageId && "chunk" in message).map((message) => message.chunk);
      expect(chunks.at(-1)).toEqual({ type: "completed", result: { label, steps: 2 } });
      expect(chunks.at(-2)).toEqual({ type: "progress", progress: 2, total: 2, message: "step 2" });
    } finally {
      await socket.close();
    }
  });

  test("a handle minted for another caller is refused 403; one this app did not mint, or of no job, 404", async () => {
    const label = `theirs-${driver}`;
    const jobId = await tasks.enqueue("jobs:steps", { label, steps: 1 }, { watch: true });
    const theirs = tasks.watchHandle("watch", jobId, { owner: "session:someone-else" });
    const refused = await fetch(`${server.url}/api/jobs/${theirs}/events`);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatchObject({ type: ErrorType.CONNECTION_FORBIDDEN, key: "handle" });
    const forged = `${theirs.split(".")[0]}.${"A".repeat(43)}`;
    for (const handle of ["nonsense", forged, tasks.watchHandle("watch", "no-such-job", "anyone")]) {
      const unknown = await fetch(`${server.url}/api/jobs/${handle}/events`);
      expect(unknown.status).toBe(404);
      expect((await unknown.json()).error).toMatchObject({ type: ErrorType.CONNECTION_NOT_FOUND, key: "handle" });
    }
    gates.open(label);
  });

  test("a watcher who comes after the end gets the outcome at once, even of a job queued without watch", async () => {
    const label = `late-${driver}`;
    gates.open(label);
    const jobId = await tasks.enqueue("jobs:steps", { label, steps: 1 });
    await waitFor(async () => (await tasks.getJob("watch", jobId))?.status === "succeeded");
    const events = await watch(server, tasks.watchHandle("watch", jobId, "anyone"));
    expect(await valuesToTheEnd(events)).toEqual([{ type: "completed", result: { label, steps: 1 } }]);
  });

  test("a failed attempt that will be retried is told as retrying; the failure carries the typed error", async () => {
    const label = `fail-${driver}`;
    const { handle } = await tasks.enqueueWatched("jobs:fail", { label, failures: 1 }, "anyone", { retries: 1, backoff: { strategy: "fixed", delayMs: 0 } });
    const events = await watch(server, handle);
    expect((await events.next())?.data).toMatchObject({ type: "status" });
    gates.open(label);
    expect(await valuesToTheEnd(events)).toEqual([
      { type: "retrying", attempt: 1, error: expect.objectContaining({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE, message: "attempt 1 failed" }) },
      { type: "failed", error: expect.objectContaining({ type: ErrorType.CONNECTION_CONFLICT, message: `no way for ${label}`, key: "label", value: label }) },
    ]);
  });

  test("a fan-out's handle gives its counts as its children end, then its whole progress", async () => {
    const gate = `fan-${driver}`;
    const fanOutId = await tasks.fanOut("jobs:square", [1, 2, -3].map((n) => ({ n, gate })), { watch: true, retries: 0 });
    const events = await watch(server, tasks.fanOutWatchHandle(fanOutId, "anyone"));
    expect((await events.next())?.data).toEqual({ type: "fanOut", total: 3, succeeded: 0, failed: 0, pending: 3, complete: false });
    gates.open(gate);
    const values = await valuesToTheEnd(events);
    expect(values.at(-1)).toMatchObject({
      type: "completed",
      result: { id: fanOutId, total: 3, succeeded: 2, failed: 1, pending: 0, complete: true, results: [{ square: 1 }, { square: 4 }, null] },
    });
    expect(values.at(-2)).toEqual({ type: "fanOut", total: 3, succeeded: 2, failed: 1, pending: 0, complete: true });
    const ended = values.slice(0, -1).map((value) => value.succeeded + value.failed);
    expect(ended).toEqual([...ended].sort((a, b) => a - b));
  });
});

describe("servers sharing one Redis and TASKS_WATCH_KEY", () => {
  const prefix = uniquePrefix("tasks-watch-shared");
  const shared = {
    REDIS_URL,
    TASKS_DRIVER: "redis",
    TASKS_PREFIX: prefix,
    CHANNELS_PREFIX: `${prefix}:channels:`,
    TASKS_WATCH_KEY: "w".repeat(32),
    TASKS_RETRIES: "0",
    LOG_LEVEL: "fatal",
  };
  const workerGates = new Gates();
  const servers: HeraldServer[] = [];
  let front: HeraldServer;
  let worker: HeraldServer;

  beforeAll(async () => {
    // The front works no queue of the app's: every job runs in the worker.
    front = await startTestServer({ appDir, providers: [{ token: Gates, useValue: new Gates() }], env: { ...shared, TASKS_QUEUES: "elsewhere" } });
    servers.push(front);
    worker = await startTestServer({ appDir, providers: [{ token: Gates, useValue: workerGates }], env: shared });
    servers.push(worker);
  }, HOOK_TIMEOUT);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await deleteKeys(prefix);
  }, HOOK_TIMEOUT);

  test("a job queued and watched through one runs in the other, and its progress and result reach the watcher through Redis", async () => {
    const label = "across";
    const { handle } = (await (await post(`${front.url}/api/jobs/start`, { label, steps: 2 })).json()) as WatchedJob;
    const events = await watch(front, handle);
    expect((await events.next())?.data).toEqual({ type: "status", status: expect.stringMatching(/^(waiting|active)$/), attempts: 0 });
    workerGates.open(label);
    const values = await valuesToTheEnd(events);
    expect(values.at(-2)).toEqual({ type: "progress", progress: 2, total: 2, message: "step 2" });
    expect(values.at(-1)).toEqual({ type: "completed", result: { label, steps: 2 } });
    // The other server reads the same handle: the key is shared.
    expect(await valuesToTheEnd(await watch(worker, handle))).toEqual([{ type: "completed", result: { label, steps: 2 } }]);
  });

  test("a server with another TASKS_WATCH_KEY knows none of their handles", async () => {
    const other = await startTestServer({ appDir, providers: [{ token: Gates, useValue: new Gates() }], env: { ...shared, TASKS_QUEUES: "elsewhere", TASKS_WATCH_KEY: "x".repeat(32) } });
    servers.push(other);
    const jobId = await worker.container.resolve(TaskService).enqueue("jobs:steps", { label: "keys", steps: 1 });
    const handle = worker.container.resolve(TaskService).watchHandle("watch", jobId, "anyone");
    const response = await fetch(`${other.url}/api/jobs/${handle}/events`);
    expect(response.status).toBe(404);
    workerGates.open("keys");
  });
});
