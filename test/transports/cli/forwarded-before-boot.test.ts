import { HOOK_TIMEOUT } from "herald/testing";
import { herald } from "../../support/cli";
import { HeraldProcess } from "../../support/herald-process";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../../support/scratch-apps";

/**
 * A command the app's running server runs needs nothing of the app's own settings in the CLI's
 * process: the CLI sends it before it loads the app, and the server reads its flags. The fixture's
 * middleware reads ADMIN_API_KEY when it is built, so a CLI that loaded the app without the key
 * would fail before it sent anything.
 */
const development = { NODE_ENV: "development", DATABASE_URL: "", REDIS_URL: "", LOG_LEVEL: "" };
const ADMIN_API_KEY = "k".repeat(32);
let scratch: string;
let appDir: string;
let server: HeraldProcess | undefined;

beforeAll(async () => {
  scratch = makeScratchDir();
  appDir = copyFixtureApp("cli-settings", scratch);
  server = await HeraldProcess.start(appDir, { ...development, ADMIN_API_KEY, LOG_LEVEL: "info" });
}, HOOK_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  removeScratchDir(scratch);
}, HOOK_TIMEOUT);

/** The CLI's environment lacks the key, as a shell where nobody exported it. */
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  herald([...args, "--verbose"], { cwd: appDir, env: { ...development, ADMIN_API_KEY: "", ...env } });

test("without the app's setting, a command runs on the running server, whose middleware has it", async () => {
  const run = await cli(["admin:purge", "--apiKey", ADMIN_API_KEY, "--olderThanDays", "3"]);
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.stringMatching(/^admin:purge: run by the app's running server/) });
  expect(JSON.parse(run.stdout)).toEqual({ response: { purged: 3, pid: expect.any(Number) } });
  expect(server!.logs.some((line) => line.action === "admin:purge" && line.connection === "cli" && line.status === 200)).toBe(true);

  const wrongKey = await cli(["admin:purge", "--apiKey", "x".repeat(32), "--olderThanDays", "3"]);
  expect(wrongKey.code).toBe(1);
  expect(JSON.parse(wrongKey.stdout).error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", key: "apiKey" });
});

test("the server reads the flags as the CLI would: repeated, bare, JSON, and the action's defaults", async () => {
  const run = await cli(["greet:say", "--who", "Ada", "--times", "2", "--loud", "--tags", "a", "--tags", "b", "--filter", '{"age":3}']);
  expect(run.code).toBe(0);
  const { response } = JSON.parse(run.stdout);
  expect(response).toEqual({ text: "HELLO, ADA! HELLO, ADA!", tags: ["a", "b"], filter: { age: 3 }, pid: expect.any(Number) });
  // The server's process ran it: the one --verbose names.
  expect(run.stderr).toContain(`run by the app's running server (process ${response.pid})`);
  const single = await cli(["--verbose", "greet:say", "--tags", "a", "--who=Ada", "--no-loud"]);
  expect(JSON.parse(single.stdout).response).toMatchObject({ text: "Hello, Ada!", tags: ["a"] });
});

test("what the CLI refuses of a command line, the server refuses alike: an unknown flag, a loose word, an unknown command", async () => {
  const unknownFlag = await cli(["greet:say", "--who", "Ada", "--tims", "3"]);
  expect(unknownFlag.code).toBe(1);
  expect(JSON.parse(unknownFlag.stdout).error).toMatchObject({
    message: 'Unknown flag --tims: "herald greet:say --help" lists its flags',
    type: "CONNECTION_ACTION_PARAM_VALIDATION",
    key: "tims",
    issues: [{ path: [], message: 'Unrecognized key: "tims"', code: "unrecognized_keys" }],
  });
  // Said once, as the CLI says its own refusals: the error body on stdout.
  expect(unknownFlag.stderr).not.toContain("Unknown flag");

  const loose = await cli(["greet:say", "--who", "Ada", "again"]);
  expect(JSON.parse(loose.stdout).error.message).toBe('Unexpected argument "again": each value follows its --flag; "herald greet:say --help" lists its flags');

  for (const word of ["greet:nope", "web:only"]) {
    const unknown = await cli([word]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error).toMatchObject({
      message: `Unknown command "${word}": "herald actions" lists the app's actions; "herald --help" the other commands`,
      type: "CONNECTION_ACTION_NOT_FOUND",
      key: "command",
      value: word,
    });
  }
});

test("with no server running, the command runs here, and needs the app's setting as the app's boot does", async () => {
  await server!.stop();
  server = undefined;
  const missing = await cli(["greet:say", "--who", "Ada"]);
  expect(missing.code).toBe(1);
  expect(JSON.parse(missing.stdout).error).toMatchObject({ message: expect.stringContaining("Invalid environment variable ADMIN_API_KEY") });
  expect(missing.stderr).not.toContain("Invalid environment variable ADMIN_API_KEY");

  const given = await cli(["greet:say", "--who", "Ada"], { ADMIN_API_KEY });
  expect(given.code).toBe(0);
  expect(JSON.parse(given.stdout).response).toMatchObject({ text: "Hello, Ada!" });
  expect(given.stderr).toContain("greet:say: run by this process (no server of this app takes action commands at ");
}, HOOK_TIMEOUT);
