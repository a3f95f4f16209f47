import { execFile } from "node:child_process";
import { join } from "node:path";
import { HERALD_BIN, herald } from "../../support/cli";

const cwd = join(__dirname, "../../fixtures/apps/cli");

test("runs an action with flags from its inputs; -q prints only the JSON result", async () => {
  const run = await herald(["greet:say", "--who", "Ada", "--times", "2", "--loud", "--tags", "a", "--tags", "b", "-q"], { cwd });
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toEqual({ response: { text: "HELLO, ADA! HELLO, ADA!", mood: null, tags: ["a", "b"] } });
  expect(run.stderr).toBe("");
});

test("without -q, logs go to stderr and stdout is still exactly the JSON result", async () => {
  const run = await herald(["greet:say", "--who", "Ada"], { cwd, env: { LOG_LEVEL: "info", LOG_FORMAT: "json" } });
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toEqual({ response: { text: "Hello, Ada!", mood: null, tags: [] } });
  const logLines = run.stderr.trim().split("\n").map((line) => JSON.parse(line));
  expect(logLines.some((line) => line.action === "greet:say" && line.connection === "cli")).toBe(true);
});

test("a validation error is the error body on stdout and exit code 1", async () => {
  const run = await herald(["greet:say", "--who", "A", "-q"], { cwd });
  expect(run.code).toBe(1);
  const body = JSON.parse(run.stdout);
  expect(body.error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "who" });
});

test("a missing required flag is the error every transport gives: type, key and issues from the action's schema", async () => {
  const run = await herald(["greet:say", "-q"], { cwd });
  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout).error).toMatchObject({
    type: "CONNECTION_ACTION_PARAM_REQUIRED",
    key: "who",
    issues: [{ path: ["who"], code: "invalid_type" }],
  });
});

test("an enum flag outside its choices is refused by the schema, with key and issues", async () => {
  const run = await herald(["greet:say", "--who", "Bob", "--mood", "angry", "-q"], { cwd });
  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout).error).toMatchObject({
    type: "CONNECTION_ACTION_PARAM_VALIDATION",
    key: "mood",
    value: "angry",
    issues: [{ path: ["mood"], code: "invalid_value" }],
  });
});

test("flags reach the schema as text, as a query string does: a number flag that is not a number echoes the text", async () => {
  const run = await herald(["greet:say", "--who", "Bob", "--times", "abc", "-q"], { cwd });
  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout).error).toMatchObject({
    type: "CONNECTION_ACTION_PARAM_VALIDATION",
    key: "times",
    value: "abc",
    issues: [{ path: ["times"], code: "invalid_type" }],
  });
});

test("a bare boolean flag is true and --no-flag false; a value written after it is text for the schema", async () => {
  const negated = await herald(["greet:say", "--who", "Bob", "--no-loud", "-q"], { cwd });
  expect(JSON.parse(negated.stdout)).toEqual({ response: { text: "Hello, Bob!", mood: null, tags: [] } });
  const written = await herald(["greet:say", "--who", "Bob", "--loud=false", "-q"], { cwd });
  expect(written.code).toBe(1);
  expect(JSON.parse(written.stdout).error).toMatchObject({
    type: "CONNECTION_ACTION_PARAM_VALIDATION",
    key: "loud",
    value: "false",
    issues: [{ path: ["loud"], code: "invalid_type" }],
  });
});

test("an unknown flag is refused before boot, as a typed error naming it", async () => {
  const run = await herald(["greet:say", "--who", "Bob", "--tims", "3", "-q"], { cwd });
  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout).error).toMatchObject({
    type: "CONNECTION_ACTION_PARAM_VALIDATION",
    key: "tims",
    issues: [{ path: [], code: "unrecognized_keys" }],
  });
  expect(JSON.parse(run.stdout).error.message).toBe('Unknown flag --tims: "herald greet:say --help" lists its flags');
  expect(run.stderr).toBe("");
});

test("a TypedError from run is the error body and exit code 1", async () => {
  const run = await herald(["greet:refuse", "-q"], { cwd });
  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout).error).toMatchObject({ message: "not today", type: "CONNECTION_FORBIDDEN" });
});

test("--help on an action lists its params with descriptions and defaults", async () => {
  const run = await herald(["greet:say", "--help"], { cwd });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("Greets someone, as many times as asked");
  expect(run.stdout).toMatch(/--who\s+Whom to greet\s+\[string\] \[required\]/);
  expect(run.stdout).toMatch(/--times\s+How many times\s+\[number\] \[default: 1\]/);
  expect(run.stdout).toMatch(/--token\s+\(secret\)/);
  expect(run.stdout).toMatch(/--loud\s+Shout it\s+\[boolean\]/);
  expect(run.stdout).toMatch(/--mood\s+\[string\] \[choices: "happy", "sad"\]/);
  expect(run.stdout).toMatch(/--tags\s+\[array\]/);
});

test("actions lists every action with its transports", async () => {
  const run = await herald(["actions", "--json"], { cwd });
  expect(run.code).toBe(0);
  const listed = JSON.parse(run.stdout) as { name: string; transports: string[] }[];
  expect(listed.map((entry) => entry.name)).toEqual(expect.arrayContaining(["greet:refuse", "greet:say", "status"]));
  // No web route and no task: WebSocket, the CLI and MCP (a tool by default) reach it.
  expect(listed.find((entry) => entry.name === "greet:say")?.transports).toEqual(["websocket", "cli", "mcp"]);
  expect(listed.find((entry) => entry.name === "status")?.transports).toEqual(["web", "websocket", "cli", "mcp"]);
});

test("an unknown command fails with exit code 1", async () => {
  const run = await herald(["greet:nope", "-q"], { cwd });
  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout).error.message).toContain("greet:nope");
});

test("--version prints the package version", async () => {
  const run = await herald(["--version"], { cwd });
  expect(run.stdout.trim()).toBe(require("../../../package.json").version);
});

describe("outside NODE_ENV=test, as a user runs it", () => {
  const development = { NODE_ENV: "development", LOG_LEVEL: "", LOG_FORMAT: "json", SESSION_SECRET: "" };

  test("a command's logs start at warn: stderr holds neither the boot's info lines nor the call's, nor a SESSION_SECRET warning", async () => {
    const run = await herald(["greet:say", "--who", "Ada"], { cwd, env: development });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ response: { text: "Hello, Ada!", mood: null, tags: [] } });
    expect(run.stderr).toBe("");
  });

  test("LOG_LEVEL still opens them up", async () => {
    const run = await herald(["greet:say", "--who", "Ada"], { cwd, env: { ...development, LOG_LEVEL: "info" } });
    const logLines = run.stderr.trim().split("\n").map((line) => JSON.parse(line));
    expect(logLines.some((line) => line.msg === "server started" && line.runMode === "cli")).toBe(true);
    expect(logLines.some((line) => line.action === "greet:say")).toBe(true);
  });

  test("a stack trace names the line of the action's own .ts file, though the app's tsconfig asks for no source map", async () => {
    const run = await herald(["greet:refuse"], { cwd, env: development });
    const { stack } = JSON.parse(run.stdout).error;
    expect(stack.split("\n")[1]).toMatch(/at GreetRefuse\.run \(.*\/actions\/fail\.ts:6:\d+\)$/);
  });

  test("a refused call is said once: its error body on stdout, nothing on stderr", async () => {
    const run = await herald(["greet:say", "--who", "A"], { cwd, env: development });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "who" });
    expect(run.stderr).toBe("");
  });

  test("a refused command line is said once, as its error body on stdout, piped or on a terminal", async () => {
    const piped = await herald(["greet:say", "--tims", "3"], { cwd, env: development });
    expect(piped.code).toBe(1);
    expect(JSON.parse(piped.stdout).error.message).toBe('Unknown flag --tims: "herald greet:say --help" lists its flags');
    expect(piped.stderr).toBe("");
    // `script` gives the command a terminal for stdout and stderr alike, and copies what both show.
    const onTerminal = await new Promise<string>((resolve, reject) => {
      execFile(
        "script",
        ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(HERALD_BIN)} greet:say --tims 3`, "/dev/null"],
        { cwd, env: { ...process.env, ...development }, timeout: 60_000 },
        (error, stdout) => (error && typeof error.code !== "number" ? reject(error) : resolve(stdout)),
      );
    });
    expect(onTerminal.split("Unknown flag --tims").length - 1).toBe(1);
    expect(onTerminal).toContain('"type": "CONNECTION_ACTION_PARAM_VALIDATION"');
  });
});
