import { ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { HeraldServer, TaskService } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { Ledger } from "../../fixtures/apps/tasks-basic/services/ledger";
import { HERALD_BIN } from "../../support/cli";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";

const basicApp = join(__dirname, "../../fixtures/apps/tasks-basic");
const recurringApp = join(__dirname, "../../fixtures/apps/tasks-recurring");
const prefix = uniquePrefix("processes");
const env = { REDIS_URL, TASKS_PREFIX: prefix, TASKS_STALL_INTERVAL: "500", TASKS_STOP_TIMEOUT: "2000" };

interface WorkerProcess {
  child: ChildProcess;
  output: string;
  exited: Promise<number | null>;
}

const workers: WorkerProcess[] = [];

/** `herald start --workers-only` in the app's folder, as a deployment runs it; resolves once it has started. */
async function startWorkerProcess(appDir: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [HERALD_BIN, "start", "--workers-only"], {
    cwd: appDir,
    env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "info", LOG_FORMAT: "json", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const worker: WorkerProcess = {
    child,
    output: "",
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
  };
  child.stdout!.on("data", (chunk: Buffer) => (worker.output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (worker.output += chunk.toString()));
  workers.push(worker);
  let exitCode: number | null | undefined;
  void worker.exited.then((code) => (exitCode = code ?? -1));
  await waitFor(
    () => {
      if (exitCode !== undefined) throw new Error(`the worker process exited (${exitCode}):\n${worker.output}`);
      return worker.output.includes('"msg":"server started"');
    },
    { timeout: 30_000 },
  );
  return worker;
}

let enqueuer: HeraldServer;
let tasks: TaskService;
let ledger: Ledger;

beforeAll(async () => {
  // A cli-mode server: it queues, and runs no worker of its own.
  enqueuer = await startTestServer({ appDir: basicApp, runMode: "cli", env: { ...env, LOG_LEVEL: "fatal" } });
  tasks = enqueuer.container.resolve(TaskService);
  ledger = new Ledger(enqueuer.config);
}, HOOK_TIMEOUT);

afterEach(async () => {
  for (const worker of workers.splice(0)) {
    worker.child.kill("SIGTERM");
    await worker.exited;
  }
}, HOOK_TIMEOUT);

afterAll(async () => {
  await ledger?.close();
  await enqueuer?.stop();
  await deleteKeys(prefix);
}, HOOK_TIMEOUT);

test("a job whose worker process was killed mid-job is run again by another worker", async () => {
  const doomed = await startWorkerProcess(basicApp);
  const jobId = await tasks.enqueue("jobs:hold", { label: "killed", holdMs: 60_000, holdOnce: true });
  await waitFor(async () => (await ledger.entries()).includes("killed:started"), { timeout: 10_000 });

  doomed.child.kill("SIGKILL");
  await doomed.exited;
  await startWorkerProcess(basicApp);

  await waitFor(async () => (await tasks.getJob("hold", jobId))?.status === "succeeded", { timeout: 20_000 });
  const entries = (await ledger.entries()).filter((entry) => entry.startsWith("killed:"));
  expect(entries).toEqual(["killed:started", "killed:started", "killed:finished"]);
});

test("a worker process stopped with SIGTERM finishes the job in hand first", async () => {
  const worker = await startWorkerProcess(basicApp);
  const jobId = await tasks.enqueue("jobs:hold", { label: "graceful", holdMs: 500 });
  await waitFor(async () => (await ledger.entries()).includes("graceful:started"), { timeout: 10_000 });

  worker.child.kill("SIGTERM");
  expect(await worker.exited).toBe(0);
  expect(await tasks.getJob("hold", jobId)).toMatchObject({ status: "succeeded", result: { held: "graceful" } });
  expect((await ledger.entries()).filter((entry) => entry.startsWith("graceful:"))).toEqual(["graceful:started", "graceful:finished"]);
});

test("two worker processes share one queue and run no job twice", async () => {
  await Promise.all([startWorkerProcess(basicApp), startWorkerProcess(basicApp)]);
  const labels = Array.from({ length: 80 }, (_, index) => `two-processes-${index}`);

  await Promise.all(labels.map((label) => tasks.enqueue("jobs:record", { label })));

  await waitFor(
    async () => (await ledger.entries()).filter((entry) => entry.startsWith("two-processes-")).length >= labels.length,
    { timeout: 20_000 },
  );
  await waitFor(async () => (await tasks.stats("work")).work!.active === 0);
  expect((await ledger.entries()).filter((entry) => entry.startsWith("two-processes-")).sort()).toEqual([...labels].sort());
});

test("a recurring task runs once per period across two processes", async () => {
  await Promise.all([startWorkerProcess(recurringApp), startWorkerProcess(recurringApp)]);
  const periods = async () =>
    (await ledger.entries()).filter((entry) => entry.startsWith("tick:")).map((entry) => Number(entry.slice(5)));

  await waitFor(async () => new Set(await periods()).size >= 4, { timeout: 20_000 });
  const seen = await periods();
  expect(seen).toEqual([...new Set(seen)]);
});

test("a cron task runs once per tick across two processes, at the second its expression names", async () => {
  await Promise.all([startWorkerProcess(recurringApp), startWorkerProcess(recurringApp)]);
  const ticks = async () =>
    (await ledger.entries()).filter((entry) => entry.startsWith("cron:")).map((entry) => Number(entry.slice(5)));

  await waitFor(async () => new Set(await ticks()).size >= 3, { timeout: 20_000 });
  const seen = await ticks();
  expect(seen).toEqual([...new Set(seen)]);
  // "* * * * * *": every whole second.
  expect(seen.filter((tick) => tick % 1000 !== 0)).toEqual([]);
});

test("a job cut off by the stop timeout of a SIGTERM is run again by another worker, and the stopped process exits 0", async () => {
  const stopping = await startWorkerProcess(basicApp);
  // Held far longer than TASKS_STOP_TIMEOUT (2 s): the stop cannot wait for it.
  const jobId = await tasks.enqueue("jobs:hold", { label: "cut-off", holdMs: 60_000, holdOnce: true });
  await waitFor(async () => (await ledger.entries()).includes("cut-off:started"), { timeout: 10_000 });

  stopping.child.kill("SIGTERM");
  expect(await stopping.exited).toBe(0);
  expect(stopping.output).toContain("jobs cut off by the stop");
  expect((await tasks.getJob("hold", jobId))?.status).not.toBe("succeeded");

  await startWorkerProcess(basicApp);
  await waitFor(async () => (await tasks.getJob("hold", jobId))?.status === "succeeded", { timeout: 20_000 });
  const entries = (await ledger.entries()).filter((entry) => entry.startsWith("cut-off:"));
  expect(entries).toEqual(["cut-off:started", "cut-off:started", "cut-off:finished"]);
});
