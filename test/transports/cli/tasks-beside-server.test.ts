import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { herald, HERALD_BIN } from "../../support/cli";
import { HeraldProcess } from "../../support/herald-process";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../../support/scratch-apps";

/**
 * Without Redis, the task queue lives in the memory of the app's server. Beside it, in development
 * on the embedded database, the CLI sends an action command that queues, and `herald tasks`, to
 * that server; without it, the CLI refuses what would use a queue of its own that no worker serves.
 */
const development = { NODE_ENV: "development", DATABASE_URL: "", REDIS_URL: "", LOG_LEVEL: "" };
let scratch: string;
let appDir: string;
let journalFile: string;
let server: HeraldProcess | undefined;

beforeAll(async () => {
  scratch = makeScratchDir();
  appDir = copyFixtureApp("tasks-cli", scratch);
  journalFile = join(scratch, "journal.log");
  server = await HeraldProcess.start(appDir, { ...development, JOURNAL_FILE: journalFile, LOG_LEVEL: "info" });
}, HOOK_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  removeScratchDir(scratch);
}, HOOK_TIMEOUT);

const journal = () => (existsSync(journalFile) ? readFileSync(journalFile, "utf8").split("\n").filter(Boolean) : []);
const cli = (args: string[]) => herald([...args, "--verbose"], { cwd: appDir, env: { ...development, JOURNAL_FILE: journalFile } });

describe("beside the app's running server", () => {
  test("an action that queues a task runs on the server, whose worker runs the task", async () => {
    const run = await cli(["signup:create", "--email", "ada@example.com"]);
    expect(run.code).toBe(0);
    const { response } = JSON.parse(run.stdout);
    expect(run.stderr).toContain(`signup:create: run by the app's running server (process ${response.pid})`);
    await waitFor(() => journal().includes("welcome:ada@example.com"));
    expect(journal()).toEqual(["signup:ada@example.com", "welcome:ada@example.com"]);
  });

  test("herald tasks reads and fills the server's own queue", async () => {
    const queued = await cli(["tasks", "enqueue", "welcome:send", "--params", '{"email":"later@example.com"}', "--delay", "3600000"]);
    expect(queued.code).toBe(0);
    expect(JSON.parse(queued.stdout)).toEqual({ response: { jobId: expect.any(String) } });
    expect(queued.stderr).toMatch(/^tasks enqueue: run by the app's running server \(process \d+\)/);

    const stats = await cli(["tasks", "stats"]);
    expect(stats.code).toBe(0);
    // Completed: the welcome job of the test above.
    expect(JSON.parse(stats.stdout)).toEqual({ response: { mail: { waiting: 0, active: 0, delayed: 1, failed: 0, completed: 1 } } });
    expect(JSON.parse((await cli(["tasks", "failed", "mail"])).stdout)).toEqual({ response: [] });
    expect(JSON.parse((await cli(["tasks", "retry", "mail", "no-such-job"])).stdout)).toEqual({ response: { retried: false } });

    const refused = await cli(["tasks", "enqueue", "journal:read"]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.type).toBe("CONNECTION_TASK_DEFINITION");
  });
});

describe("with no server running", () => {
  beforeAll(async () => {
    await server!.stop();
    server = undefined;
  }, HOOK_TIMEOUT);

  test("an action that takes the queue is refused before it runs: nothing written, and the error says why", async () => {
    const before = journal();
    const run = await cli(["signup:create", "--email", "bob@example.com"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("signup:create: run by this process (no server of this app takes action commands at ");
    expect(JSON.parse(run.stdout).error).toMatchObject({
      type: "CONNECTION_SERVICE_UNAVAILABLE",
      message: expect.stringMatching(/^Action "signup:create" uses the task queue \(it takes TaskService\), so this cli process refuses it before it runs: without REDIS_URL/),
    });
    expect(journal()).toEqual(before);
    // What takes no queue runs here as always.
    expect(JSON.parse((await cli(["journal:read"])).stdout).response.entries).toEqual(before);
  });

  test("an action that finds the queue only while it runs: what it wrote stays, and its enqueue is refused, naming why", async () => {
    const run = await cli(["signup:late", "--email", "carol@example.com"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error).toMatchObject({
      type: "CONNECTION_SERVICE_UNAVAILABLE",
      message: expect.stringMatching(/^A task queued from this cli process would never run: without REDIS_URL/),
    });
    expect(journal()).toContain("late:carol@example.com");
  });

  test("herald tasks shows no queue of its own as the app's: it says the queue is the server's", async () => {
    for (const args of [["tasks", "stats"], ["tasks", "failed", "mail"], ["tasks", "retry", "mail", "1"]]) {
      const run = await cli(args);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout).error).toMatchObject({
        type: "CONNECTION_SERVICE_UNAVAILABLE",
        message: expect.stringMatching(/^This cli process cannot see the app's task queue: without REDIS_URL, the queue lives in the memory of the app's server process/),
      });
    }
    const queued = await cli(["tasks", "enqueue", "welcome:send", "--params", '{"email":"dan@example.com"}']);
    expect(JSON.parse(queued.stdout).error.message).toMatch(/^A task queued from this cli process would never run/);
  });

  test("the console refuses the same action before it runs", async () => {
    const before = journal();
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [HERALD_BIN, "console"], { cwd: appDir, env: { ...process.env, ...development, JOURNAL_FILE: journalFile } });
      let stdout = "";
      child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout }));
      child.stdin.end('await run("signup:create", { email: "eve@example.com" }).catch((error) => error.type)\n');
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("'CONNECTION_SERVICE_UNAVAILABLE'");
    expect(journal()).toEqual(before);
  });
});
