import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { herald } from "../../support/cli";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL } from "../../support/redis";

const cwd = join(__dirname, "../../fixtures/apps/tasks-basic");
const prefix = `herald-test:cli-tasks:${randomUUID().slice(0, 8)}`;
const env = { REDIS_URL: TEST_REDIS_URL, TASKS_PREFIX: prefix };

afterAll(async () => {
  const redis = await connectTestRedis();
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

test("tasks enqueue queues a job on Redis and returns its id; a bad param fails there with 422", async () => {
  const queued = await herald(["tasks", "enqueue", "jobs:record", "--params", '{"label":"from-cli"}', "-q"], { cwd, env });
  expect(queued.code).toBe(0);
  expect(JSON.parse(queued.stdout).response.jobId).toEqual(expect.any(String));

  const invalid = await herald(["tasks", "enqueue", "jobs:record", "--params", '{"label":""}', "-q"], { cwd, env });
  expect(invalid.code).toBe(1);
  expect(JSON.parse(invalid.stdout).error.type).toBe("CONNECTION_ACTION_PARAM_VALIDATION");

  const notJson = await herald(["tasks", "enqueue", "jobs:record", "--params", "{nope", "-q"], { cwd, env });
  expect(JSON.parse(notJson.stdout).error.type).toBe("CONNECTION_ACTION_PARAM_FORMATTING");
});

test("tasks stats counts the queued job; tasks failed lists none yet", async () => {
  const stats = await herald(["tasks", "stats", "work", "-q"], { cwd, env });
  expect(stats.code).toBe(0);
  expect(JSON.parse(stats.stdout).response.work).toMatchObject({ waiting: expect.any(Number) });
  expect(JSON.parse(stats.stdout).response.work.waiting).toBeGreaterThanOrEqual(1);
  const failed = await herald(["tasks", "failed", "work", "-q"], { cwd, env });
  expect(JSON.parse(failed.stdout)).toEqual({ response: [] });
});

test("tasks enqueue of an action that is not a task is refused", async () => {
  const run = await herald(["tasks", "enqueue", "signup:create", "-q"], { cwd, env });
  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout).error.type).toBe("CONNECTION_TASK_DEFINITION");
});

test("tasks schedules lists each task that runs by itself, by frequency or cron, with its next run", async () => {
  const before = Date.now();
  const run = await herald(["tasks", "schedules", "-q"], { cwd: join(__dirname, "../../fixtures/apps/tasks-recurring"), env });
  expect(run.code).toBe(0);
  const schedules = JSON.parse(run.stdout).response as { action: string; nextRun: string }[];
  expect(schedules).toEqual([
    { action: "clock:cron-tick", queue: "clock", cron: "* * * * * *", timezone: "UTC", nextRun: expect.any(String) },
    { action: "clock:tick", queue: "clock", every: 400, nextRun: expect.any(String) },
  ]);
  for (const schedule of schedules) expect(Date.parse(schedule.nextRun)).toBeGreaterThan(before);
});

test("tasks job shows a job as it stands; tasks cancel removes it while it waits; tasks remove forgets one; an unknown job is 404", async () => {
  // No worker runs here: a queued job waits.
  const queue = async () => JSON.parse((await herald(["tasks", "enqueue", "jobs:record", "--params", '{"label":"to-cancel"}', "-q"], { cwd, env })).stdout).response.jobId as string;
  const waiting = await queue();
  const shown = await herald(["tasks", "job", "work", waiting, "-q"], { cwd, env });
  expect(shown.code).toBe(0);
  expect(JSON.parse(shown.stdout).response).toMatchObject({ id: waiting, queue: "work", action: "jobs:record", status: "waiting", params: { label: "to-cancel" } });

  const cancelled = await herald(["tasks", "cancel", "work", waiting, "-q"], { cwd, env });
  expect(JSON.parse(cancelled.stdout)).toEqual({ response: { cancelled: true } });
  const gone = await herald(["tasks", "job", "work", waiting, "-q"], { cwd, env });
  expect(gone.code).toBe(1);
  expect(JSON.parse(gone.stdout).error).toMatchObject({ type: "CONNECTION_NOT_FOUND", key: "jobId" });
  expect(JSON.parse((await herald(["tasks", "cancel", "work", waiting, "-q"], { cwd, env })).stdout)).toEqual({ response: { cancelled: false } });

  const removed = await queue();
  expect(JSON.parse((await herald(["tasks", "remove", "work", removed, "-q"], { cwd, env })).stdout)).toEqual({ response: { removed: true } });
  expect((await herald(["tasks", "job", "work", removed, "-q"], { cwd, env })).code).toBe(1);
});
