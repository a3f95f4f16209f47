import { join } from "node:path";
import type { WatchedJob } from "herald";
import { HOOK_TIMEOUT } from "herald/testing";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "../../reliability/support/shared-redis";
import { EventStreamReader } from "../../support/event-stream";
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
  const answer = await fetch(`${front.url}/api/jobs/start`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ label: "across", steps: 3, gated: false }),
  });
  const { handle } = (await answer.json()) as WatchedJob;
  const events = await watch(front.url, handle);
  expect((await events.next())?.data).toEqual({ type: "status", status: "waiting", attempts: 0 });

  const worker = await start({ TASKS_WATCH_KEY: key });
  const seen = await values(events);
  expect(seen.at(-2)).toEqual({ type: "progress", progress: 3, total: 3, message: "step 3" });
  expect(seen.at(-1)).toEqual({ type: "completed", result: { label: "across", steps: 3 } });
  // The process that ran it reads the handle the other minted: the key is shared.
  expect(await values(await watch(worker.url, handle))).toEqual([{ type: "completed", result: { label: "across", steps: 3 } }]);
}, HOOK_TIMEOUT);
