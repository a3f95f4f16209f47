import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildProgram, ExitCode } from "herald";
import { herald } from "../../support/cli";
import { makeScratchDir, removeScratchDir } from "../../support/scratch-apps";

const cliApp = join(__dirname, "../../fixtures/apps/cli");

test("bare herald prints the help, listing the framework commands", async () => {
  const run = await herald([], { cwd: cliApp });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("Usage: herald <command> [options]");
  for (const command of ["start", "actions", "build", "generate <type> [name]", "new <dir>"]) {
    expect(run.stdout).toContain(`herald ${command}`);
  }
  expect(run.stdout).toContain("herald <action> --help");
  expect(run.stderr).toBe("");
});

describe("an app whose config fails to load", () => {
  let scratch: string;
  beforeAll(() => {
    scratch = makeScratchDir();
    writeFileSync(join(scratch, "herald.config.ts"), 'throw new Error("config exploded");\n');
  });
  afterAll(() => removeScratchDir(scratch));

  test("--help, --version and new do not load the app", async () => {
    const help = await herald(["--help"], { cwd: scratch });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("herald generate <type> [name]");
    expect((await herald(["--version"], { cwd: scratch })).code).toBe(0);
    expect((await herald(["new", "fresh", "--dry-run"], { cwd: scratch })).code).toBe(0);
  });

  test("a command that needs the app reports why it cannot load, once: in its error body", async () => {
    const run = await herald(["actions"], { cwd: scratch });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error.message).toContain("config exploded");
    expect(run.stderr).toBe("");
  });
});

test("an unknown command says so once, in its error body, with exit code 1", async () => {
  const run = await herald(["frobnicate"], { cwd: cliApp });
  expect(run.code).toBe(1);
  const { error } = JSON.parse(run.stdout);
  expect(error).toMatchObject({ type: "CONNECTION_ACTION_NOT_FOUND", key: "command", value: "frobnicate" });
  expect(error.message).toContain('Unknown command "frobnicate"');
  expect(run.stderr).toBe("");
});

test("outside any app, an action-like command says that no app was found", async () => {
  const run = await herald(["greet:say"], { cwd: "/" });
  expect(run.code).toBe(1);
  const { message } = JSON.parse(run.stdout).error;
  expect(message).toContain('Unknown command "greet:say"');
  expect(message).toContain("No Herald application found here");
});

test("buildProgram gives an app its own entry point with every command", async () => {
  const written: string[] = [];
  let exitCode: ExitCode | undefined;
  const program = await buildProgram({
    appDir: cliApp,
    argv: ["greet:say", "--who", "Ada", "-q"],
    output: { write: (text) => written.push(text), exit: (code) => (exitCode = code) },
  });
  await program.parseAsync();
  expect(exitCode).toBe(ExitCode.success);
  expect(JSON.parse(written.join(""))).toEqual({ response: { text: "Hello, Ada!", mood: null, tags: [] } });
});
