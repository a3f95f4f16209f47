import { existsSync } from "node:fs";
import { HOOK_TIMEOUT } from "herald/testing";
import { cliSocketPath } from "../../../src/transports/cli/running-server";
import { herald } from "../../support/cli";
import { HeraldProcess } from "../../support/herald-process";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../../support/scratch-apps";

/**
 * The embedded database serves one process, so beside `herald start` in development the CLI
 * runs its action on that server, through a Unix socket of the app, rather than be refused the
 * database. A copy of the CLI fixture, so that no other test's command meets this server.
 */
const development = { NODE_ENV: "development", DATABASE_URL: "", REDIS_URL: "", LOG_LEVEL: "" };
let scratch: string;
let appDir: string;
let server: HeraldProcess | undefined;

beforeAll(async () => {
  scratch = makeScratchDir();
  appDir = copyFixtureApp("cli", scratch);
  server = await HeraldProcess.start(appDir, { ...development, LOG_LEVEL: "info" });
}, HOOK_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  removeScratchDir(scratch);
}, HOOK_TIMEOUT);

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => herald([...args, "--verbose"], { cwd: appDir, env: { ...development, ...env } });

test("an action command runs on the running server: the same output and exit code, and --verbose says where", async () => {
  const run = await cli(["greet:say", "--who", "Ada", "--times", "2"]);
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toEqual({ response: { text: "Hello, Ada! Hello, Ada!", mood: null, tags: [] } });
  expect(run.stderr).toMatch(/^greet:say: run by the app's running server \(process \d+\), through .*cli\.sock\n$/);
  expect(server!.logs.some((line) => line.action === "greet:say" && line.connection === "cli")).toBe(true);
});

test("a refusal comes back as this process would print it: the error body, exit code 1", async () => {
  const run = await cli(["greet:say", "--who", "A"]);
  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "who" });
  const refused = await cli(["greet:refuse"]);
  expect(refused.code).toBe(1);
  expect(JSON.parse(refused.stdout).error).toMatchObject({ type: "CONNECTION_FORBIDDEN", message: "not today" });
});

test("with a DATABASE_URL of its own, the CLI runs the call itself", async () => {
  const run = await cli(["greet:say", "--who", "Ada"], { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("greet:say: run by this process\n");
});

test("a socket left by a server that crashed is not answered: the CLI runs the call itself, and the next server takes the socket again", async () => {
  await server!.kill();
  expect(existsSync(cliSocketPath(appDir))).toBe(true);
  const alone = await cli(["greet:say", "--who", "Ada"]);
  expect(alone.code).toBe(0);
  expect(alone.stderr).toMatch(/run by this process \(no server of this app takes action commands at .*\)/);
  server = await HeraldProcess.start(appDir, { ...development, LOG_LEVEL: "info" });
  expect((await cli(["greet:say", "--who", "Ada"])).stderr).toContain("run by the app's running server");
}, HOOK_TIMEOUT);

test("a server that stops removes its socket, and the CLI runs the call itself again", async () => {
  await server!.stop();
  server = undefined;
  expect(existsSync(cliSocketPath(appDir))).toBe(false);
  const run = await cli(["greet:say", "--who", "Ada"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("run by this process");
});
