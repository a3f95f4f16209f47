import { join } from "node:path";
import { Connection, CONNECTION_TYPE, type HeraldServer, TaskService } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { Repairs } from "../../../fixtures/apps/tasks-dashboard/services/repairs";
import { deleteKeys, REDIS_URL, uniquePrefix } from "../support";

const appDir = join(__dirname, "../../../fixtures/apps/tasks-dashboard");
const OPERATOR_KEY = "operator-key-of-the-dashboard-tests";

interface Answer {
  status: number;
  body: any;
}

describe.each(["redis", "memory"] as const)("the tasks dashboard's actions over HTTP, on the %s driver", (driver) => {
  const prefix = uniquePrefix(`tasks-dashboard-${driver}`);
  let server: HeraldServer;
  let tasks: TaskService;

  beforeAll(async () => {
    server = await startTestServer({
      appDir,
      env: { REDIS_URL, TASKS_DRIVER: driver, TASKS_PREFIX: prefix, OPERATOR_KEY, LOG_LEVEL: "fatal" },
    });
    tasks = server.container.resolve(TaskService);
  }, HOOK_TIMEOUT);

  afterAll(async () => {
    await server?.stop();
    await deleteKeys(prefix);
  }, HOOK_TIMEOUT);

  async function call(method: "GET" | "POST", path: string, params?: Record<string, unknown>, key: string | null = OPERATOR_KEY): Promise<Answer> {
    const headers: Record<string, string> = key === null ? {} : { "x-operator-key": key };
    if (params) headers["content-type"] = "application/json";
    const response = await fetch(`${server.url}/api${path}`, { method, headers, ...(params ? { body: JSON.stringify(params) } : {}) });
    return { status: response.status, body: await response.json() };
  }

  const overview = async () => (await call("GET", "/tasks/overview")).body;
  const queueRow = async (queue: string) => (await overview()).queues.find((row: { queue: string }) => row.queue === queue);
  const failureIds = async () => (await call("GET", "/tasks/failures", undefined)).body.failures.map((job: { id: string }) => job.id);

  async function failedJob(label: string): Promise<string> {
    const jobId = await tasks.enqueue("jobs:fragile", { label }, { retries: 0 });
    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "failed");
    return jobId;
  }

  test("refuses a caller without the app's admin check's key, before the action runs", async () => {
    for (const key of [null, "not-the-operator-key-at-all"]) {
      const answer = await call("GET", "/tasks/overview", undefined, key);
      expect(answer).toMatchObject({ status: 401, body: { error: { type: "CONNECTION_NOT_AUTHENTICATED" } } });
    }
    const jobId = await failedJob(`${driver}-untouched`);
    expect((await call("POST", "/tasks/retry", { queue: "work", jobId }, null)).status).toBe(401);
    expect((await call("POST", "/tasks/remove", { queue: "work", jobId }, null)).status).toBe(401);
    expect((await tasks.getJob("work", jobId))?.status).toBe("failed");
    await tasks.remove("work", jobId);
  });

  test("counts each queue's jobs, completed ones included, though the queue forgets them", async () => {
    const label = `${driver}-fine`;
    server.container.resolve(Repairs).repair(label);
    const before = (await queueRow("work")).completed as number;
    await tasks.enqueue("jobs:fragile", { label });
    await tasks.enqueue("jobs:fragile", { label });

    await waitFor(async () => (await queueRow("work")).completed === before + 2);
    expect(await queueRow("work")).toEqual({ queue: "work", waiting: 0, active: 0, delayed: 0, failed: 0, completed: before + 2 });
    expect((await overview()).queues.map((row: { queue: string }) => row.queue)).toEqual(["mail", "work"]);
  });

  test("lists failures newest first with their error, and a retry runs the job again", async () => {
    const older = await failedJob(`${driver}-older`);
    const newer = await failedJob(`${driver}-newer <b>bold</b>`);

    const { body } = await call("GET", "/tasks/failures", undefined);
    expect(body.failures.slice(0, 2).map((job: { id: string }) => job.id)).toEqual([newer, older]);
    expect(body.failures[0]).toMatchObject({
      id: newer,
      queue: "work",
      action: "jobs:fragile",
      params: { label: `${driver}-newer <b>bold</b>` },
      attempts: 1,
      error: { message: `broken: ${driver}-newer <b>bold</b>`, type: "CONNECTION_ACTION_RUN", key: "label" },
    });
    expect((await queueRow("work")).failed).toBe(2);
    expect((await call("GET", "/tasks/failures?queue=work&limit=1", undefined)).body.failures.map((job: { id: string }) => job.id)).toEqual([newer]);

    server.container.resolve(Repairs).repair(`${driver}-older`);
    const completed = (await queueRow("work")).completed as number;
    expect(await call("POST", "/tasks/retry", { queue: "work", jobId: older })).toEqual({ status: 200, body: { queue: "work", jobId: older, retried: true } });
    await waitFor(async () => (await tasks.getJob("work", older))?.status === "succeeded");
    expect(await queueRow("work")).toMatchObject({ failed: 1, completed: completed + 1 });
    expect(await failureIds()).toEqual([newer]);

    // Retried already: no failed job of that id is left to retry.
    expect(await call("POST", "/tasks/retry", { queue: "work", jobId: older })).toMatchObject({ status: 404, body: { error: { type: "CONNECTION_NOT_FOUND", key: "jobId" } } });
    await tasks.remove("work", newer);
  });

  test("removes a failed job, and only a failed one", async () => {
    const jobId = await failedJob(`${driver}-removed`);
    expect(await call("POST", "/tasks/remove", { queue: "work", jobId })).toEqual({ status: 200, body: { queue: "work", jobId, removed: true } });
    expect(await tasks.getJob("work", jobId)).toBeUndefined();
    expect(await failureIds()).not.toContain(jobId);
    expect((await call("POST", "/tasks/remove", { queue: "work", jobId })).status).toBe(404);

    const succeeded = await tasks.enqueue("jobs:ok", { n: 1 });
    await waitFor(async () => (await tasks.getJob("mail", succeeded))?.status === "succeeded");
    expect((await call("POST", "/tasks/remove", { queue: "mail", jobId: succeeded })).status).toBe(404);
    expect((await tasks.getJob("mail", succeeded))?.status).toBe("succeeded");
  });

  test("refuses a queue no task action names, and bad inputs, as any action does", async () => {
    expect(await call("GET", "/tasks/failures?queue=elsewhere", undefined)).toMatchObject({ status: 404, body: { error: { type: "CONNECTION_NOT_FOUND", key: "queue" } } });
    expect(await call("POST", "/tasks/retry", { queue: "elsewhere", jobId: "x" })).toMatchObject({ status: 404, body: { error: { key: "queue" } } });
    expect((await call("GET", "/tasks/failures?limit=0", undefined)).status).toBe(422);
    expect((await call("POST", "/tasks/retry", { queue: "work" })).status).toBe(422);
  });

  test("shows each schedule with its next run, and the last run any process queued", async () => {
    await waitFor(async () => (await overview()).schedules.find((schedule: { action: string }) => schedule.action === "jobs:hourly")?.lastRun !== null);
    const { schedules } = await overview();
    const hourly = schedules.find((schedule: { action: string }) => schedule.action === "jobs:hourly");
    expect(hourly).toEqual({
      action: "jobs:hourly",
      queue: "mail",
      every: 3_600_000,
      nextRun: expect.stringMatching(/T\d\d:00:00\.000Z$/),
      lastRun: { queuedAt: expect.any(String), jobId: expect.any(String), status: expect.stringMatching(/^(waiting|active|succeeded)$/) },
    });
    expect(await tasks.getJob("mail", hourly.lastRun.jobId)).toMatchObject({ action: "jobs:hourly" });
    expect(schedules.find((schedule: { action: string }) => schedule.action === "jobs:nightly")).toEqual({
      action: "jobs:nightly",
      queue: "mail",
      cron: "0 3 * * *",
      timezone: "UTC",
      nextRun: expect.stringMatching(/T03:00:00\.000Z$/),
      lastRun: null,
    });
  });

  test("the CLI gets the same answer, without a key: the app's admin check admits it", async () => {
    const result = await server.runAction("tasks:overview", {}, new Connection({ type: CONNECTION_TYPE.cli }));
    expect(result.status).toBe(200);
    expect(result.response).toEqual(await overview());
  });
});
