import { join } from "node:path";
import { Connection, CONNECTION_TYPE, ErrorType, HeraldServer, TaskService, TypedError } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { Ledger } from "../../fixtures/apps/tasks-basic/services/ledger";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";

const appDir = join(__dirname, "../../fixtures/apps/tasks-basic");

describe.each(["redis", "memory"] as const)("tasks on the %s driver", (driver) => {
  const prefix = uniquePrefix(`tasks-server-${driver}`);
  let server: HeraldServer;
  let tasks: TaskService;
  let ledger: Ledger;

  beforeAll(async () => {
    server = await startTestServer({
      appDir,
      runMode: "workers",
      env: { REDIS_URL, TASKS_DRIVER: driver, TASKS_PREFIX: prefix, TASKS_STALL_INTERVAL: "500", LOG_LEVEL: "fatal" },
    });
    tasks = server.container.resolve(TaskService);
    ledger = server.container.resolve(Ledger);
  }, HOOK_TIMEOUT);

  afterAll(async () => {
    await server?.stop();
    await deleteKeys(prefix);
  }, HOOK_TIMEOUT);

  const fixed = (delayMs: number) => ({ strategy: "fixed" as const, delayMs });

  test("an action queues a task and a worker runs it through the pipeline", async () => {
    const result = await server.runAction("signup:create", { email: "ada@example.com" }, new Connection({ type: CONNECTION_TYPE.web }));
    expect(result.status).toBe(200);
    const { jobId } = result.response as { jobId: string };

    await waitFor(async () => (await ledger.entries()).includes("welcome:ada@example.com"));
    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "succeeded");
    expect(await tasks.getJob("work", jobId)).toMatchObject({
      action: "jobs:record",
      result: { recorded: "welcome:ada@example.com", connection: "task" },
      attempts: 1,
    });
  });

  test("a bad enqueue fails at once with the 422 of the action's inputs", async () => {
    const enqueue = tasks.enqueue("jobs:record", { label: "" });
    await expect(enqueue).rejects.toBeInstanceOf(TypedError);
    await expect(enqueue).rejects.toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION, status: 422, key: "label" });
    await expect(tasks.enqueue("jobs:nope")).rejects.toMatchObject({ type: ErrorType.CONNECTION_ACTION_NOT_FOUND });
    await expect(tasks.enqueue("signup:create", { email: "a@b.co" })).rejects.toMatchObject({
      type: ErrorType.CONNECTION_TASK_DEFINITION,
    });
    expect((await tasks.stats("work")).work).toMatchObject({ waiting: 0 });
  });

  test("a failing task is retried, then kept as failed with its error body", async () => {
    const label = `flaky-${driver}-always`;
    const jobId = await tasks.enqueue("jobs:flaky", { label, failures: 99 }, { retries: 2, backoff: fixed(20) });

    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "failed");
    expect(await ledger.increment(label)).toBe(4);
    const failed = await tasks.failed("work");
    expect(failed).toEqual([
      expect.objectContaining({
        id: jobId,
        action: "jobs:flaky",
        attempts: 3,
        error: expect.objectContaining({ message: "attempt 3 failed", type: "CONNECTION_ACTION_RUN" }),
      }),
    ]);
    expect((await tasks.stats()).work).toMatchObject({ failed: 1 });

    await tasks.remove("work", jobId);
    expect(await tasks.failed("work")).toEqual([]);
  });

  test("a task that fails twice succeeds on its third attempt", async () => {
    const jobId = await tasks.enqueue("jobs:flaky", { label: `flaky-${driver}-twice`, failures: 2 }, { retries: 3, backoff: fixed(20) });

    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "succeeded");
    expect((await tasks.getJob("work", jobId))?.result).toEqual({ attempts: 3, seenAttempt: 3 });
  });

  test("a failed job runs again when retried", async () => {
    const label = `flaky-${driver}-retried`;
    const jobId = await tasks.enqueue("jobs:flaky", { label, failures: 1 }, { retries: 0 });
    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "failed");

    expect(await tasks.retry("work", jobId)).toBe(true);
    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "succeeded");
    expect((await tasks.getJob("work", jobId))?.result).toMatchObject({ attempts: 2 });
  });

  test("a delayed task waits its delay", async () => {
    const enqueuedAt = Date.now();
    const jobId = await tasks.enqueue("jobs:record", { label: `delayed-${driver}` }, { delayMs: 300 });

    expect((await tasks.getJob("work", jobId))?.status).toBe("delayed");
    await waitFor(async () => (await ledger.entries()).includes(`delayed-${driver}`));
    expect(Date.now() - enqueuedAt).toBeGreaterThanOrEqual(300);
  });

  test("a job id de-duplicates", async () => {
    const jobId = `daily-report-${driver}`;
    const ids = await Promise.all([
      tasks.enqueue("jobs:record", { label: jobId }, { jobId }),
      tasks.enqueue("jobs:record", { label: jobId }, { jobId }),
    ]);
    expect(ids).toEqual([jobId, jobId]);
    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "succeeded");
    await tasks.enqueue("jobs:record", { label: jobId }, { jobId });

    await waitFor(async () => (await tasks.stats("work")).work!.waiting === 0);
    expect((await ledger.entries()).filter((entry) => entry === jobId)).toHaveLength(1);
  });

  test("a parent task fans out children and reads their results", async () => {
    const parentId = await tasks.enqueue("jobs:squares", { ns: [1, 2, 3, -4] });
    await waitFor(async () => (await tasks.getJob("work", parentId))?.status === "succeeded");
    const { fanOutId } = (await tasks.getJob("work", parentId))!.result as { fanOutId: string };

    await waitFor(async () => (await tasks.fanOutProgress(fanOutId))?.complete === true);
    expect(await tasks.fanOutProgress(fanOutId)).toMatchObject({
      action: "jobs:square",
      total: 4,
      succeeded: 3,
      failed: 1,
      pending: 0,
      results: [{ square: 1 }, { square: 4 }, { square: 9 }, null],
      errors: [{ index: 3, error: expect.objectContaining({ message: "no square for -4", type: "CONNECTION_CONFLICT" }) }],
    });
  });

  test("a fan-out validates every params first and names the bad one", async () => {
    await expect(tasks.fanOut("jobs:square", [{ n: 1 }, { n: "two" }])).rejects.toMatchObject({
      status: 422,
      key: "1.n",
      message: expect.stringContaining("Fan-out item 1"),
    });
  });

  test("the health report covers the queue", async () => {
    expect((await server.health.report()).services.queue).toMatchObject({ healthy: true });
  });
});

test("with a small fan-out batch, an idempotent fan-out queues each child once", async () => {
  const prefix = uniquePrefix("tasks-server-fanout");
  const server = await startTestServer({
    appDir,
    runMode: "workers",
    env: { REDIS_URL, TASKS_DRIVER: "redis", TASKS_PREFIX: prefix, TASKS_FANOUT_BATCH: "2" },
  });
  try {
    const tasks = server.container.resolve(TaskService);
    const list = [1, 2, 3, 4, 5].map((n) => ({ n }));
    const id = await tasks.fanOut("jobs:square", list, { id: "squares-once" });
    expect(await tasks.fanOut("jobs:square", list, { id: "squares-once" })).toBe(id);

    await waitFor(async () => (await tasks.fanOutProgress(id))?.complete === true);
    expect(await tasks.fanOutProgress(id)).toMatchObject({ total: 5, succeeded: 5, results: list.map(({ n }) => ({ square: n * n })) });
    await waitFor(async () => (await tasks.stats("work")).work!.waiting === 0);
    expect(await tasks.getJob("work", `${id}:4`)).toMatchObject({ status: "succeeded", attempts: 1 });
  } finally {
    await server.stop();
    await deleteKeys(prefix);
  }
});
