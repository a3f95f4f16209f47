import { join } from "node:path";
import fc from "fast-check";
import { buildProgram, errorBody, ExitCode, isTypedError } from "herald";
import { HOOK_TIMEOUT } from "herald/testing";
import { herald } from "../support/cli";
import { hostileArgv } from "./support/hostile-argv";
import { assertErrorBody, prototypeSnapshot } from "./support/hostile";

/**
 * Property-based hostile input on the CLI: `herald <action> --flag=value …` with the params of
 * the sample-style actions spoiled, plus unknown flags, prototype paths in yargs' dot notation,
 * repeated (array) flags, wrong types, huge strings and unicode. Every run must print one JSON
 * document, a success with exit code 0 or a typed client error with exit code 1, and leave the
 * prototypes of this process untouched. In-process through the CLI's own program (a child
 * process per run would take a second each), then the nastiest cases as real `herald` processes.
 */
const appDir = join(__dirname, "fixtures/app");
const RUNS = 100;

/** Run first every time: a JSON flag that is not JSON (it once made yargs fail untyped), and prototype paths in dot notation. */
const REGRESSIONS: [string[]][] = [
  [["message:post", "-q", "--body=b", "--userId=1", "--meta={bad json"]],
  [["message:post", "-q", "--body=b", "--userId=1", "--__proto__.polluted=yes", "--constructor.prototype.polluted=yes"]],
  [["profile:update", "-q", "--id=1", "--settings.constructor.prototype.polluted=yes", "--address.__proto__.polluted=yes"]],
];

interface Run {
  code: number | undefined;
  stdout: string;
}

/** Runs `herald <argv>` in this process with the CLI's own program, printing a failure the way `runCli` does. */
async function runInProcess(argv: string[]): Promise<Run> {
  let stdout = "";
  let code: ExitCode | undefined;
  const output = { write: (text: string) => void (stdout += text), exit: (exitCode: ExitCode) => void (code = exitCode) };
  try {
    const program = await buildProgram({ appDir, argv, output });
    await program.exitProcess(false).parseAsync();
  } catch (thrown) {
    // runCli would print anything else as a server error (CONNECTION_ACTION_RUN).
    if (!isTypedError(thrown)) throw new Error(`an untyped failure for ${JSON.stringify(argv).slice(0, 300)}: ${String((thrown as Error)?.stack ?? thrown)}`);
    stdout += `${JSON.stringify(errorBody(thrown, true))}\n`;
    code = ExitCode.error;
  }
  return { code, stdout };
}

/** One JSON document: a success with exit code 0, or a typed client error with exit code 1. */
function assertOneDocument(argv: string[], { code, stdout }: Run): void {
  const lines = stdout.trim().split("\n");
  if (lines.length !== 1) throw new Error(`not one JSON document for ${JSON.stringify(argv).slice(0, 300)}: ${stdout.slice(0, 500)}`);
  const document = JSON.parse(lines[0]!) as Record<string, unknown>;
  if ("response" in document) return void expect(code).toBe(ExitCode.success);
  assertErrorBody(document);
  expect(code).toBe(ExitCode.error);
}

const prototypesBefore = prototypeSnapshot();
afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  expect(prototypeSnapshot()).toEqual(prototypesBefore);
});

test("hostile flags get one success or typed client error document, with the matching exit code", async () => {
  await fc.assert(
    fc.asyncProperty(hostileArgv, async (argv) => assertOneDocument(argv, await runInProcess(argv))),
    { numRuns: RUNS, examples: REGRESSIONS },
  );
}, HOOK_TIMEOUT);

describe("the herald executable", () => {
  const env = { REDIS_URL: "", LOG_LEVEL: "warn" };

  test.each([
    ["prototype paths in dot notation", 1, ["message:post", "--body", "b", "--userId", "1", "--__proto__.polluted=yes", "--constructor.prototype.polluted=yes", "-q"]],
    ["a JSON flag that is not JSON", 1, ["message:post", "--body", "b", "--userId", "1", "--meta", "{bad", "-q"]],
    ["a number flag that is not a number", 1, ["messages:list", "--page", "many", "-q"]],
    ["a 100 KB value and unicode edge cases", 1, ["user:signup", "--name", "x".repeat(100_000), "--email", "\uD800@\u202E.example", "--password", "𝕏🧨👩‍👩‍👧", "-q"]],
    ["prototype keys inside JSON flags, which are dropped", 0, ["profile:update", "--id", "1", "--address", '{"__proto__":{"polluted":"yes"}}', "--settings", '{"constructor":{"prototype":{"polluted":"yes"}}}', "-q"]],
  ])("%s: one document, exit code %d, no stack trace", async (_name, expectedCode, argv) => {
    const run = await herald(argv, { cwd: appDir, env });
    expect(run.code).toBe(expectedCode);
    assertOneDocument(argv, run);
    expect(run.stdout).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, HOOK_TIMEOUT);

});
