import { type HeraldServer, TaskService } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { herald } from "../../../support/cli";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../../../support/scratch-apps";
import { deleteKeys, REDIS_URL, uniquePrefix } from "../support";

/**
 * The dashboard's data from the real `herald` executable, a process of its own on the app's Redis:
 * every action is a command, and the app's admin check admits the CLI.
 */
const prefix = uniquePrefix("tasks-dashboard-cli");
const env = { REDIS_URL, TASKS_DRIVER: "redis", TASKS_PREFIX: prefix, LOG_LEVEL: "fatal" };
let scratch: string;
let appDir: string;
let server: HeraldServer;

beforeAll(async () => {
  scratch = makeScratchDir();
  appDir = copyFixtureApp("tasks-dashboard", scratch);
  server = await startTestServer({ appDir, runMode: "workers", env });
}, HOOK_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  await deleteKeys(prefix);
  removeScratchDir(scratch);
}, HOOK_TIMEOUT);

async function command(args: string[]): Promise<any> {
  const run = await herald([...args, "-q"], { cwd: appDir, env });
  expect(run).toMatchObject({ code: 0 });
  return JSON.parse(run.stdout).response;
}

test(
  "herald tasks:overview, tasks:failures and tasks:retry answer as the actions do over HTTP",
  async () => {
    const tasks = server.container.resolve(TaskService);
    const jobId = await tasks.enqueue("jobs:fragile", { label: "from the cli" }, { retries: 0 });
    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "failed");

    const overview = await command(["tasks:overview"]);
    expect(overview.queues).toContainEqual({ queue: "work", waiting: 0, active: 0, delayed: 0, failed: 1, completed: 0 });
    expect(overview.schedules.map((schedule: { action: string }) => schedule.action).sort()).toEqual(["jobs:hourly", "jobs:nightly"]);

    const { failures } = await command(["tasks:failures", "--queue", "work"]);
    expect(failures).toEqual([expect.objectContaining({ id: jobId, error: expect.objectContaining({ message: "broken: from the cli" }) })]);

    expect(await command(["tasks:retry", "--queue", "work", "--jobId", jobId])).toEqual({ queue: "work", jobId, retried: true });
    // Not repaired: the server's worker runs it once more, and it fails again.
    await waitFor(async () => (await tasks.getJob("work", jobId))?.attempts === 2);
    expect((await tasks.getJob("work", jobId))?.status).toBe("failed");
  },
  120_000,
);
