import { join } from "node:path";
import type { WatchedJob } from "herald";
import { HOOK_TIMEOUT } from "herald/testing";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "../../reliability/support/shared-redis";
import { EventStreamReader } from "../../support/event-stream";
import { herald } from "../../support/cli";
import { HeraldProcess } from "../../support/herald-process";

/**
 * Watching a job across `herald start` processes (of the built CLI) on one Redis: the job is
 * queued and watched through one, and run by the other, whose events cross through Redis.
 */
const APP = join(__dirname, "../../fixtures/apps/tasks-watch");
const NAME = uniqueAppName("tasks-watch");
const started: HeraldProcess[] = [];

async function start(env: NodeJS.ProcessEnv): Promise<HeraldProcess> {
  const server = await HeraldProcess.start(APP, { REDIS_URL: SHARED_REDIS_URL, NAME, HOST: "127.0.0.1", TASKS_RETRIES: "0", ...env });
  started.push(server);
  return server;
}

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  await deleteAppKeys(NAME);
}, HOOK_TIMEOUT);

async function startJob(url: string, body: object): Promise<WatchedJob> {
  const answer = await fetch(`${url}/api/jobs/start`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(answer.status).toBe(200);
  return (await answer.json()) as WatchedJob;
}

async function watch(url: string, handle: string): Promise<EventStreamReader> {
  const response = await fetch(`${url}/api/jobs/${handle}/events`);
  expect(response.status).toBe(200);
  return new EventStreamReader(response);
}

async function values(events: EventStreamReader): Promise<unknown[]> {
  const rest = await events.rest();
  expect(rest.at(-1)).toEqual({ event: "end", data: {} });
  return rest.slice(0, -1).map((event) => event.data);
}

test("a job queued and watched through one process runs in another, and its progress and result reach the watcher", async () => {
  const key = "p".repeat(32);
  // No worker for the job yet: it waits until the second process starts.
  const front = await start({ TASKS_WATCH_KEY: key, TASKS_QUEUES: "elsewhere" });
  const { handle } = await startJob(front.url, { label: "across", steps: 3, gated: false });
  const events = await watch(front.url, handle);
  expect((await events.next())?.data).toEqual({ type: "status", status: "waiting", attempts: 0 });

  const worker = await start({ TASKS_WATCH_KEY: key });
  const seen = await values(events);
  expect(seen.at(-2)).toEqual({ type: "progress", progress: 3, total: 3, message: "step 3" });
  expect(seen.at(-1)).toEqual({ type: "completed", result: { label: "across", steps: 3 } });
  // The process that ran it reads the handle the other minted: the key is shared.
  expect(await values(await watch(worker.url, handle))).toEqual([{ type: "completed", result: { label: "across", steps: 3 } }]);
}, HOOK_TIMEOUT);

test("the command line watches a job too, one chunk line per event; another caller's handle is refused 403", async () => {
  const key = "q".repeat(32);
  const server = await start({ TASKS_WATCH_KEY: key });
  const env = { REDIS_URL: SHARED_REDIS_URL, NAME, TASKS_WATCH_KEY: key, LOG_LEVEL: "fatal" };
  const { handle } = await startJob(server.url, { label: "for anyone", steps: 1, gated: false, watcher: "anyone" });
  // Watched to its end first, so that the command's stream is its outcome alone.
  expect((await values(await watch(server.url, handle))).at(-1)).toEqual({ type: "completed", result: { label: "for anyone", steps: 1 } });
  const run = await herald(["tasks:watch", "--handle", handle, "-q"], { cwd: APP, env });
  expect({ code: run.code, lines: run.stdout.trim().split("\n").map((line) => JSON.parse(line)) }).toEqual({
    code: 0,
    lines: [{ chunk: { type: "completed", result: { label: "for anyone", steps: 1 } } }, { response: null }],
  });
  // Minted for the HTTP caller's address: the command line is another caller.
  const theirs = await startJob(server.url, { label: "for the caller", steps: 1, gated: false });
  const refused = await herald(["tasks:watch", "--handle", theirs.handle, "-q"], { cwd: APP, env });
  expect(refused.code).toBe(1);
  expect(JSON.parse(refused.stdout).error).toMatchObject({ type: "CONNECTION_FORBIDDEN", key: "handle" });
}, HOOK_TIMEOUT);
