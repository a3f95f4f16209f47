import { spawn } from "node:child_process";
import { join } from "node:path";
import { ErrorType } from "herald";
import { herald, HERALD_BIN } from "../../support/cli";

// The built CLI (`npm run build` first), run at a terminal through util-linux's `script`, which
// gives the command a pseudo-terminal: stdin and stderr are TTYs as when a person runs it.
const cwd = join(__dirname, "../../fixtures/apps/mcp-ask");

interface TerminalRun {
  /** Resolves once the terminal has shown `text` (`times` times), however much came before. */
  shown(text: string, times?: number): Promise<void>;
  type(keys: string): void;
  /** Everything the terminal showed, and the command's exit code. */
  done: Promise<{ code: number | null; screen: string }>;
}

function atTerminal(action: string): TerminalRun {
  const child = spawn("script", ["-qec", `"${process.execPath}" "${HERALD_BIN}" ${action}`, "/dev/null"], {
    cwd,
    env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "warn" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  const waiting = new Set<{ text: string; times: number; resolve: () => void }>();
  const seen = (text: string, times: number) => screen.split(text).length - 1 >= times;
  child.stdout.on("data", (chunk: Buffer) => {
    screen += chunk.toString();
    for (const waiter of waiting) {
      if (seen(waiter.text, waiter.times)) {
        waiting.delete(waiter);
        waiter.resolve();
      }
    }
  });
  return {
    shown: (text, times = 1) => (seen(text, times) ? Promise.resolve() : new Promise((resolve) => waiting.add({ text, times, resolve }))),
    type: (keys) => child.stdin.write(keys),
    done: new Promise((resolve) => child.once("exit", (code) => resolve({ code, screen }))),
  };
}

/** The command's JSON, printed last (pretty at a terminal). */
function printed(screen: string): unknown {
  return JSON.parse(screen.slice(screen.lastIndexOf("\n{\r\n") + 1).replace(/\r/g, ""));
}

test("at a terminal, a form is filled in field by field, asked again until its schema accepts it", async () => {
  const run = atTerminal("ask:greet");
  await run.shown("Your name?");
  await run.shown("  name: ");
  run.type("A\r");
  // Too short for the schema: the terminal says why and asks again.
  await run.shown("! name: Too small");
  await run.shown("  name: ", 2);
  run.type("Ada\r");
  const { code, screen } = await run.done;
  expect(code).toBe(0);
  expect(printed(screen)).toEqual({ response: { greeting: "Hello, Ada" } });
});

test("at a terminal, the end of the input (Ctrl-D) cancels the form", async () => {
  const run = atTerminal("ask:greet");
  await run.shown("name: ");
  run.type("\x04");
  const { code, screen } = await run.done;
  expect(code).toBe(0);
  expect(printed(screen)).toEqual({ response: { greeting: "no name (cancel)" } });
});

test("at a terminal, a question it cannot answer (a sample of a model) refuses the call before anything is asked", async () => {
  const run = atTerminal("ask:everything");
  const { code, screen } = await run.done;
  expect(code).not.toBe(0);
  expect(screen).not.toContain("Which plan?");
  expect(printed(screen)).toMatchObject({ error: { type: ErrorType.CONNECTION_INPUT_REQUIRED, value: { keys: ["summary"] } } });
});

test("without a terminal, the command refuses with the 422 naming the keys", async () => {
  const run = await herald(["ask:greet"], { cwd, env: { LOG_LEVEL: "warn" } });
  expect(run.code).not.toBe(0);
  const body = JSON.parse(run.stdout) as { error: { type: string; value: unknown; message: string } };
  expect(body.error).toMatchObject({ type: ErrorType.CONNECTION_INPUT_REQUIRED, value: { keys: ["who"] } });
  expect(body.error.message).toContain("over cli without a terminal");
});
