import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get, request } from "node:http";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { HeraldProcess } from "./support/herald-process";
import { call } from "./support/http";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "./support/shared-redis";

/** `herald start --processes`: one port served by several processes, supervised by a primary. */
const appDir = join(__dirname, "fixtures/app");
const sampleApp = join(__dirname, "../../sample-app");
const name = uniqueAppName("processes");
const started: HeraldProcess[] = [];
const scratch = mkdtempSync(join(tmpdir(), "herald-processes-"));

afterAll(async () => {
  for (const herald of started) await herald.kill();
  await deleteAppKeys(name);
  rmSync(scratch, { recursive: true, force: true });
}, HOOK_TIMEOUT);

function spawn(args: string[], env: NodeJS.ProcessEnv = {}, dir = appDir): HeraldProcess {
  const herald = HeraldProcess.spawn(dir, { REDIS_URL: SHARED_REDIS_URL, NAME: name, ...env }, args);
  started.push(herald);
  return herald;
}

/** A cluster of `count` processes, once every one of them serves. */
async function cluster(count: number, env: NodeJS.ProcessEnv = {}): Promise<HeraldProcess> {
  const herald = spawn(["--processes", String(count)], env);
  await herald.waitForLines("server started", count);
  // Said once the primary has heard from a process, which it hears after the process's own line.
  await herald.waitForLines("server processes started", 1);
  herald.url = herald.lines("server started")[0]!.url as string;
  return herald;
}

/** Which process answered, over a connection of its own: the primary hands each new connection to the next process. */
function whichProcess(url: string): Promise<{ pid: number; index: string }> {
  return new Promise((resolve, reject) => {
    get(`${url}/api/process`, { agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => (response.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${response.statusCode}: ${text}`))));
    }).on("error", reject);
  });
}

/** POST over a connection of its own, with a cookie: the count it answers, and the cookie it sets. */
function countInSession(url: string, cookie: string | undefined): Promise<{ count: number; cookie: string | undefined }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${url}/api/session/count`, { method: "POST", agent: false, headers: cookie ? { cookie } : {} }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        if (response.statusCode !== 200) return reject(new Error(`${response.statusCode}: ${text}`));
        resolve({ count: (JSON.parse(text) as { count: number }).count, cookie: response.headers["set-cookie"]?.[0]?.split(";")[0] });
      });
    });
    sent.on("error", reject).end();
  });
}

async function pidsAnswering(url: string, requests: number): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < requests; i++) pids.add((await whichProcess(url)).pid);
  return pids;
}

/** The refusal a command printed on stdout, as its error body. */
function errorBody(herald: HeraldProcess): { message: string; type: string } {
  const line = herald.logs.find((logged) => logged.error !== undefined);
  if (!line) throw new Error(`no error body among:\n${herald.otherOutput.join("\n")}`);
  return line.error;
}

test("two processes serve one port, each new connection going to the next, and stop together at SIGTERM with the call in flight answered", async () => {
  const herald = await cluster(2);
  const workerPids = new Set(herald.lines("server started").map((line) => line.pid as number));
  expect(workerPids.size).toBe(2);
  expect(workerPids).not.toContain(herald.pid);
  expect(herald.lines("server processes started", { processes: 2 })).toHaveLength(1);

  expect(await pidsAnswering(herald.url, 6)).toEqual(workerPids);
  const indexes = new Set<string>();
  for (let i = 0; i < 4; i++) indexes.add((await whichProcess(herald.url)).index);
  expect(indexes).toEqual(new Set(["1", "2"]));

  const release = join(scratch, "release-cluster-call");
  const inFlight = call(`${herald.url}/api/until-file?path=${encodeURIComponent(release)}&label=cluster`);
  await herald.waitForLines("slow:until-file started", 1, { label: "cluster" });
  herald.signal("SIGTERM");
  await herald.waitForLines("stopping", 2, { reason: "the primary process asked" });
  writeFileSync(release, "");
  expect(await inFlight).toMatchObject({ status: 200, body: { label: "cluster" } });
  expect(await herald.exited).toBe(0);
  expect(herald.lines("server stopped")).toHaveLength(2);
});

test("a process that dies is restarted after a backoff, while the others go on serving", async () => {
  const herald = await cluster(2);
  const [victim, survivor] = herald.lines("server started").map((line) => line.pid as number);
  process.kill(victim!, "SIGKILL");
  await herald.waitForLines("server process exited: restarting it", 1);
  expect(herald.lines("server process exited: restarting it")[0]).toMatchObject({ pid: victim, signal: "SIGKILL", restartInMs: 1000 });
  // Every connection is answered meanwhile, none by the dead process.
  expect(await pidsAnswering(herald.url, 3)).not.toContain(victim);
  expect(survivor).toBeDefined();

  await herald.waitForLines("server started", 3);
  const replacement = herald.lines("server started")[2]!.pid as number;
  expect([victim, survivor]).not.toContain(replacement);
  await waitFor(async () => (await pidsAnswering(herald.url, 4)).has(replacement), { timeout: 30_000 });
  herald.signal("SIGTERM");
  expect(await herald.exited).toBe(0);
});

test("a signal sent to the whole group (Ctrl-C) reaches each process and the primary, and is still one graceful stop", async () => {
  const herald = await cluster(2);
  const workers = herald.lines("server started").map((line) => line.pid as number);
  herald.signal("SIGINT");
  for (const pid of workers) process.kill(pid, "SIGINT");
  expect(await herald.exited).toBe(0);
  expect(herald.lines("second signal: exiting now")).toEqual([]);
  expect(herald.lines("server stopped")).toHaveLength(2);
});

test("outside production, without SESSION_SECRET, the primary makes one for all its processes: a session made by one is the next one's", async () => {
  const herald = await cluster(2, { SESSION_SECRET: "" });
  expect(herald.lines("secrets made for this run's processes, shared by all of them: what they sign is worthless after a restart; set them to keep it")[0]).toMatchObject({
    made: ["SESSION_SECRET", "MCP_REQUEST_STATE_KEY", "TASKS_WATCH_KEY"],
  });
  const first = await countInSession(herald.url, undefined);
  expect(first).toMatchObject({ count: 1, cookie: expect.any(String) });
  // Each call on a connection of its own: the two processes take them in turn.
  const counts: number[] = [];
  for (let i = 0; i < 3; i++) counts.push((await countInSession(herald.url, first.cookie)).count);
  expect(counts).toEqual([2, 3, 4]);
  herald.signal("SIGTERM");
  expect(await herald.exited).toBe(0);
});

test("PROCESSES=auto runs one process per core", async () => {
  const herald = spawn([], { PROCESSES: "auto" });
  await herald.waitForLines("starting server processes", 1);
  expect(herald.lines("starting server processes")[0]).toMatchObject({ processes: availableParallelism() });
  await herald.waitForLines("server started", availableParallelism());
  herald.signal("SIGTERM");
  expect(await herald.exited).toBe(0);
});

test("--workers-only takes --processes too", async () => {
  const herald = spawn(["--workers-only", "--processes", "2"]);
  await herald.waitForLines("server started", 2, { runMode: "workers" });
  herald.signal("SIGTERM");
  expect(await herald.exited).toBe(0);
});

test("when no process can boot, the primary stops rather than restarting them for ever", async () => {
  // A setting only a server process reads: the primary starts, each process it runs fails.
  const herald = spawn(["--processes", "2"], { HTTP_SHUTDOWN_TIMEOUT: "soon" });
  expect(await herald.exited).toBe(1);
  expect(herald.lines("a server process exited before any started serving: stopping the others").length).toBeGreaterThanOrEqual(1);
  expect(herald.lines("server process exited: restarting it")).toEqual([]);
});

test("without REDIS_URL it is refused, naming REDIS_URL: each process would keep its own sessions, channels and queue", async () => {
  const herald = spawn(["--processes", "2"], { REDIS_URL: "" });
  expect(await herald.exited).toBe(1);
  expect(errorBody(herald)).toMatchObject({ type: "CONFIG_ERROR", message: expect.stringContaining("set REDIS_URL") });
  expect(herald.lines("server started")).toEqual([]);
});

test("on the embedded database it is refused, naming DATABASE_URL", async () => {
  const herald = spawn(["--processes", "2"], { DATABASE_URL: "" }, sampleApp);
  expect(await herald.exited).toBe(1);
  expect(errorBody(herald)).toMatchObject({ type: "CONFIG_ERROR", message: expect.stringContaining("the embedded database serves one process: set DATABASE_URL") });
});

test.each([
  [["--processes", "zero"], {}, "--processes must be a whole number of processes (1 or more) or \"auto\", not \"zero\""],
  [[], { PROCESSES: "0" }, "PROCESSES must be a whole number of processes (1 or more) or \"auto\", not \"0\""],
])("a count that is not one (%j %j) is refused by name", async (args, env, message) => {
  const herald = spawn(args, env);
  expect(await herald.exited).toBe(1);
  expect(errorBody(herald)).toMatchObject({ type: "CONFIG_ERROR", message });
});
