import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Connection, CONNECTION_TYPE, ErrorType, HeraldServer, TaskService } from "herald";
import { startTestServer, waitFor } from "herald/testing";
import { Journal } from "../../fixtures/apps/tasks-cli/services/journal";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";

/**
 * Without Redis, the queue lives in the memory of the process that runs the workers. A process
 * without workers (cli, mcp) refuses, before it runs, a call of an action that takes the queue,
 * and refuses to show its own queue as the app's.
 */
const appDir = join(__dirname, "../../fixtures/apps/tasks-cli");
let folder: string;
const servers: HeraldServer[] = [];
let journals = 0;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "herald-unserved-queue-"));
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function boot(runMode: "cli" | "workers", env: NodeJS.ProcessEnv = {}): Promise<{ server: HeraldServer; journal: Journal }> {
  const server = await startTestServer({
    appDir,
    runMode,
    env: { TASKS_DRIVER: "memory", JOURNAL_FILE: join(folder, `journal-${(journals += 1)}.log`), LOG_LEVEL: "fatal", ...env },
  });
  servers.push(server);
  return { server, journal: server.container.resolve(Journal) };
}

const call = (server: HeraldServer, action: string, params: object = {}) =>
  server.runAction(action, params, new Connection({ type: CONNECTION_TYPE.cli }));

test("in a cli process, an action that takes the queue, through a service or its own middleware, is refused before it runs", async () => {
  const { server, journal } = await boot("cli");
  for (const action of ["signup:create", "signup:audited"]) {
    const result = await call(server, action, { email: "ada@example.com" });
    expect(result.error).toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE, status: 503 });
    expect(result.error!.message).toContain(`Action "${action}" uses the task queue (it takes TaskService), so this cli process refuses it before it runs: without REDIS_URL`);
  }
  // Refused before its params were read, and nothing written.
  expect((await call(server, "signup:create", {})).error?.type).toBe(ErrorType.CONNECTION_SERVICE_UNAVAILABLE);
  expect(journal.entries()).toEqual([]);
  // What takes no queue runs.
  expect(await call(server, "journal:read")).toMatchObject({ status: 200, response: { entries: [] } });
});

test("an action that finds the queue only while it runs has done what came before; its enqueue is refused, naming why", async () => {
  const { server, journal } = await boot("cli");
  const result = await call(server, "signup:late", { email: "ada@example.com" });
  expect(result.error).toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE, status: 503 });
  expect(result.error!.message).toMatch(/^A task queued from this cli process would never run: without REDIS_URL, the queue lives in the memory of the app's server process/);
  expect(journal.entries()).toEqual(["late:ada@example.com"]);
});

test("a cli process shows none of its own queue as the app's", async () => {
  const { server } = await boot("cli");
  const tasks = server.container.resolve(TaskService);
  for (const read of [() => tasks.stats(), () => tasks.failed("mail"), () => tasks.getJob("mail", "1"), () => tasks.retry("mail", "1")]) {
    await expect(read()).rejects.toMatchObject({
      type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
      message: expect.stringMatching(/^This cli process cannot see the app's task queue: without REDIS_URL/),
    });
  }
  expect(tasks.queues()).toEqual(["mail"]);
});

test("a process with workers runs the same action, and its worker the task it queued", async () => {
  const { server, journal } = await boot("workers");
  expect(await call(server, "signup:create", { email: "ada@example.com" })).toMatchObject({ status: 200 });
  await waitFor(() => journal.entries().includes("welcome:ada@example.com"));
  expect(journal.entries()[0]).toBe("signup:ada@example.com");
});

test("on Redis, a cli process queues for the workers of any process: nothing is refused", async () => {
  const prefix = uniquePrefix("unserved-queue");
  try {
    const { server, journal } = await boot("cli", { TASKS_DRIVER: "redis", REDIS_URL, TASKS_PREFIX: prefix });
    const result = await call(server, "signup:create", { email: "ada@example.com" });
    expect(result).toMatchObject({ status: 200, response: { jobId: expect.any(String) } });
    expect(journal.entries()).toEqual(["signup:ada@example.com"]);
    const job = await server.container.resolve(TaskService).getJob("mail", (result.response as { jobId: string }).jobId);
    expect(job?.status).toBe("waiting");
  } finally {
    await deleteKeys(prefix);
  }
});
