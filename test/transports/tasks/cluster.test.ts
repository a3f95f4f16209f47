import { join } from "node:path";
import { ErrorType, HeraldServer, TaskService } from "herald";
import { startTestServer, waitFor } from "herald/testing";
import { Ledger } from "../../fixtures/apps/tasks-basic/services/ledger";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";

const basicApp = join(__dirname, "../../fixtures/apps/tasks-basic");
const recurringApp = join(__dirname, "../../fixtures/apps/tasks-recurring");

/** Servers that share one Redis and one key prefix, as the processes of one deployment do. */
function cluster(prefix: string) {
  const servers: HeraldServer[] = [];
  return {
    async start(appDir: string, runMode: "workers" | "cli" | "server" = "workers", env: NodeJS.ProcessEnv = {}) {
      const server = await startTestServer({
        appDir,
        runMode,
        env: { REDIS_URL, TASKS_PREFIX: prefix, TASKS_STALL_INTERVAL: "500", LOG_LEVEL: "fatal", ...env },
      });
      servers.push(server);
      return server;
    },
    async stopAll() {
      await Promise.all(servers.splice(0).map((server) => server.stop()));
      await deleteKeys(prefix);
    },
  };
}

const periodsOf = (entries: string[]) => entries.filter((entry) => entry.startsWith("tick:")).map((entry) => Number(entry.slice(5)));

describe("several servers sharing Redis", () => {
  const prefix = uniquePrefix("cluster");
  const servers = cluster(prefix);

  afterEach(() => servers.stopAll());

  test("two workers share one queue and run no job twice", async () => {
    const first = await servers.start(basicApp, "workers", { TASKS_CONCURRENCY: "3" });
    await servers.start(basicApp, "workers", { TASKS_CONCURRENCY_WORK: "4" });
    const tasks = first.container.resolve(TaskService);
    const ledger = first.container.resolve(Ledger);
    const labels = Array.from({ length: 60 }, (_, index) => `shared-${index}`);

    await Promise.all(labels.map((label) => tasks.enqueue("jobs:record", { label })));

    await waitFor(async () => (await ledger.entries()).length >= labels.length, { timeout: 15_000 });
    await waitFor(async () => {
      const stats = (await tasks.stats("work")).work!;
      return stats.waiting === 0 && stats.active === 0;
    });
    expect((await ledger.entries()).sort()).toEqual([...labels].sort());
  });

  test("a cli process only queues; a workers process runs the job", async () => {
    const cli = await servers.start(basicApp, "cli");
    const worker = await servers.start(basicApp, "workers");

    const jobId = await cli.container.resolve(TaskService).enqueue("jobs:record", { label: "from-the-cli" });

    await waitFor(async () => (await worker.container.resolve(TaskService).getJob("work", jobId))?.status === "succeeded");
    expect(await cli.container.resolve(TaskService).getJob("work", jobId)).toMatchObject({ result: { recorded: "from-the-cli" } });
  });

  test("a recurring task is queued once per period however many servers run", async () => {
    const first = await servers.start(recurringApp);
    await servers.start(recurringApp);
    await servers.start(recurringApp, "server");
    const ledger = first.container.resolve(Ledger);

    await waitFor(async () => new Set(periodsOf(await ledger.entries())).size >= 4, { timeout: 15_000 });
    const periods = periodsOf(await ledger.entries());
    expect(periods).toEqual([...new Set(periods)]);
  });

  test("a restarted cluster runs the current period only: no catch-up of the periods it missed", async () => {
    const before = await servers.start(recurringApp);
    const ledger = new Ledger(before.config);
    try {
      await waitFor(async () => periodsOf(await ledger.entries()).length >= 1);
      await before.stop();
      const lastBefore = Math.max(...periodsOf(await ledger.entries()));
      // Leave at least one whole period with no server at all.
      await waitFor(() => Math.floor(Date.now() / 400) >= lastBefore + 2, { timeout: 5000, interval: 20 });

      const restartedIn = Math.floor(Date.now() / 400);
      await servers.start(recurringApp);
      await waitFor(async () => periodsOf(await ledger.entries()).some((period) => period > lastBefore));

      const resumed = periodsOf(await ledger.entries()).filter((period) => period > lastBefore);
      expect(Math.min(...resumed)).toBeGreaterThanOrEqual(restartedIn);
      expect(resumed).toEqual([...new Set(resumed)]);
    } finally {
      await ledger.close();
    }
  });
});

test("without Redis, a cli process refuses to queue a task that no worker would run", async () => {
  const server = await startTestServer({ appDir: basicApp, runMode: "cli", env: { TASKS_DRIVER: "memory", LOG_LEVEL: "fatal" } });
  try {
    await expect(server.container.resolve(TaskService).enqueue("jobs:record", { label: "lost" })).rejects.toMatchObject({
      type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
      status: 503,
    });
  } finally {
    await server.stop();
  }
});

test("a recurring task whose inputs need params fails the boot", async () => {
  const prefix = uniquePrefix("cluster-bad-recurring");
  await expect(
    startTestServer({
      appDir: join(__dirname, "../../fixtures/apps/tasks-bad-recurring"),
      runMode: "workers",
      env: { TASKS_DRIVER: "memory", TASKS_PREFIX: prefix, LOG_LEVEL: "fatal" },
    }),
  ).rejects.toMatchObject({ message: expect.stringContaining('Recurring task "bad:tick" runs without params') });
});

test("a cron task whose expression cannot be read fails the boot, naming the action and why", async () => {
  await expect(
    startTestServer({
      appDir: join(__dirname, "../../fixtures/apps/tasks-bad-cron"),
      runMode: "workers",
      env: { TASKS_DRIVER: "memory", TASKS_PREFIX: uniquePrefix("cluster-bad-cron"), LOG_LEVEL: "fatal" },
    }),
  ).rejects.toMatchObject({
    type: ErrorType.SERVER_START,
    message: expect.stringContaining('Action "bad:cron" has task.cron "61 * * * *", which cannot be read: CronPattern: Invalid value for minute: 61'),
  });
});

describe("when Redis cannot be reached", () => {
  const unreachable = { REDIS_URL: "redis://127.0.0.1:1", LOG_LEVEL: "fatal" };

  test("a workers process fails its boot, naming the queue's Redis", async () => {
    await expect(startTestServer({ appDir: basicApp, runMode: "workers", env: unreachable })).rejects.toMatchObject({
      message: expect.stringContaining("The task queue cannot reach Redis"),
    });
  });

  test("a cli process boots, and only an enqueue fails", async () => {
    const server = await startTestServer({ appDir: basicApp, runMode: "cli", env: unreachable });
    try {
      await expect(server.container.resolve(TaskService).enqueue("jobs:record", { label: "x" })).rejects.toMatchObject({
        message: expect.stringContaining("The task queue cannot reach Redis"),
      });
    } finally {
      await server.stop();
    }
  });
});
