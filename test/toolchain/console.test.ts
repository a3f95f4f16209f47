import { execFile, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { HERALD_BIN } from "../support/cli";

const cwd = join(__dirname, "../fixtures/apps/cli");
const historyFile = join(cwd, ".herald/console-history");

/** `herald console` fed `lines` on its standard input, as a script would; resolves with what it printed and its exit code. */
function consoleRun(lines: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HERALD_BIN, "console"], { cwd, env: { ...process.env, NODE_ENV: "test", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(lines.map((line) => `${line}\n`).join(""));
  });
}

afterAll(() => rmSync(historyFile, { force: true }));

test("the console holds the booted app: run calls an action through the dispatcher, a refusal is its TypedError", async () => {
  const run = await consoleRun([
    "actions()",
    'await run("greet:say", { who: "Ada", times: 2 })',
    'await run("greet:say", { who: "A" }).catch((error) => [error.type, error.key])',
    'await run("greet:refuse").catch((error) => error.message)',
    "config.env",
    ".exit",
  ]);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("[ 'status', 'greet:refuse', 'greet:say' ]");
  expect(run.stdout).toContain("{ text: 'Hello, Ada! Hello, Ada!', mood: null, tags: [] }");
  expect(run.stdout).toContain("[ 'CONNECTION_ACTION_PARAM_VALIDATION', 'who' ]");
  expect(run.stdout).toContain("'not today'");
  expect(run.stdout).toContain("'test'");
});

test("resolve gives the container's services", async () => {
  const run = await consoleRun([
    'const { HealthRegistry } = require("herald")',
    "resolve(HealthRegistry) === herald.health",
    "container === herald.container",
    ".exit",
  ]);
  expect(run.code).toBe(0);
  expect(run.stdout.match(/\btrue\b/g)).toHaveLength(2);
});

test("the end of its input stops the app and ends the process, as .exit does", async () => {
  const run = await consoleRun(['await run("greet:say", { who: "Bo" })']);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("Hello, Bo!");
});

test("a script's lines run one after the other, with no prompt, and the app stops once the last is done", async () => {
  const run = await consoleRun(
    [
      "const seen = []",
      // A call takes turns of the event loop: were the lines run at once, the last would read `seen` before either pushed.
      'await run("greet:say", { who: "Ada" }).then((response) => seen.push(response.text))',
      // Not awaited: the console waits for the promise a line results in.
      'run("greet:say", { who: "Bo" }).then((response) => seen.push(response.text))',
      "seen.join(' / ')",
    ],
    { LOG_LEVEL: "info", LOG_FORMAT: "json" },
  );
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("1\n2\n'Hello, Ada! / Hello, Bo!'\n");
  const logged = run.stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg: string; status?: number });
  // Both calls answered before the app stopped, and the app stopped.
  expect(logged.map((entry) => entry.msg).slice(-3)).toEqual(["action", "action", "server stopped"]);
  expect(logged.filter((entry) => entry.msg === "action").map((entry) => entry.status)).toEqual([200, 200]);
});

test("the first line of a script that fails ends it: its error on stderr, the app stopped, exit code 1", async () => {
  const run = await consoleRun(["1 + 1", 'await run("greet:refuse")', '"not reached"'], { LOG_LEVEL: "info", LOG_FORMAT: "json" });
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("2\n");
  expect(run.stderr).toContain("Uncaught TypedError: not today");
  expect(run.stderr).toContain("herald console: line 2 failed; the lines after it were not run");
  expect(run.stderr).toContain('"msg":"server stopped"');
});

test("a script that ends inside an unfinished expression fails, and the expression is not run", async () => {
  const run = await consoleRun(["1 + 1", 'run("greet:say", {']);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("2\n");
  expect(run.stderr).toContain("herald console: the input ended inside an unfinished expression, which was not run");
});

test("an expression over several lines of a script runs as one", async () => {
  const run = await consoleRun(["const twice = (text) =>", "  `${text} ${text}`;", 'twice("echo")']);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("'echo echo'\n");
});

test("on a terminal it greets, keeps its history in .herald/console-history, and ends with .exit", async () => {
  rmSync(historyFile, { force: true });
  // `script` gives the console a terminal; what the console shows comes back on script's stdout.
  const shown = await new Promise<string>((resolve, reject) => {
    const child = execFile(
      "script",
      ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(HERALD_BIN)} console`, "/dev/null"],
      { cwd, env: { ...process.env, NODE_ENV: "test" }, timeout: 60_000 },
      (error, stdout) => (error && typeof error.code !== "number" ? reject(error) : resolve(stdout)),
    );
    child.stdin!.write('await run("greet:say", { who: "Cy" })\r');
    child.stdin!.write(".exit\r");
  });
  expect(shown).toContain("3 actions");
  expect(shown).toContain("Hello, Cy!");
  expect(existsSync(historyFile)).toBe(true);
  expect(readFileSync(historyFile, "utf8")).toContain('await run("greet:say", { who: "Cy" })');
});
