import { execFile } from "node:child_process";
import { join } from "node:path";
import { TurnBatchedDestination } from "../../src/core/turn-batched-destination";

const dist = join(__dirname, "../../dist");

function recordingSink() {
  const writes: string[] = [];
  return { writes, sink: { write: (chunk: string) => writes.push(chunk) } };
}

const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("log lines batched per turn of the event loop", () => {
  test("lines of one turn reach the sink in one write, in order, at the end of the turn", async () => {
    const { writes, sink } = recordingSink();
    const destination = new TurnBatchedDestination(sink);
    destination.write("one\n");
    destination.write("two\n");
    destination.write("three\n");
    expect(writes).toEqual([]);
    await endOfTurn();
    expect(writes).toEqual(["one\ntwo\nthree\n"]);
  });

  test("each turn's lines get a write of their own", async () => {
    const { writes, sink } = recordingSink();
    const destination = new TurnBatchedDestination(sink);
    destination.write("a\n");
    await endOfTurn();
    destination.write("b\n");
    await endOfTurn();
    expect(writes).toEqual(["a\n", "b\n"]);
  });

  test("a batch past 16 KiB is written at once, without waiting for the turn to end", () => {
    const { writes, sink } = recordingSink();
    const destination = new TurnBatchedDestination(sink);
    const line = `${"x".repeat(1023)}\n`;
    for (let i = 0; i < 16; i += 1) destination.write(line);
    expect(writes).toEqual([line.repeat(16)]);
  });

  test("flush writes what is held and calls back", () => {
    const { writes, sink } = recordingSink();
    const destination = new TurnBatchedDestination(sink);
    destination.write("held\n");
    const callback = jest.fn();
    destination.flush(callback);
    expect(writes).toEqual(["held\n"]);
    expect(callback).toHaveBeenCalledWith();
  });

  test("nothing is written when nothing is held", async () => {
    const { writes, sink } = recordingSink();
    const destination = new TurnBatchedDestination(sink);
    destination.flushSync();
    await endOfTurn();
    expect(writes).toEqual([]);
  });
});

/** Runs a script with the built logger in a child process; resolves with its stdout and exit code. */
function runScript(body: string): Promise<{ stdout: string; code: number }> {
  const script = `
const { createLogger } = require(${JSON.stringify(join(dist, "core/logger.js"))});
const logger = createLogger({ level: "info", format: "json", destination: 1 });
${body}`;
  return new Promise((resolve) => {
    execFile(process.execPath, ["-e", script], (error, stdout) => resolve({ stdout, code: error ? Number(error.code) : 0 }));
  });
}

const messages = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line).msg);

describe("a process's last lines", () => {
  test("lines logged just before process.exit are written", async () => {
    const { stdout, code } = await runScript(`logger.info("first"); logger.info("last"); process.exit(3);`);
    expect(code).toBe(3);
    expect(messages(stdout)).toEqual(["first", "last"]);
  });

  test("lines logged before an uncaught exception are written", async () => {
    const { stdout, code } = await runScript(`logger.error("about to fail"); throw new Error("boom");`);
    expect(code).toBe(1);
    expect(messages(stdout)).toEqual(["about to fail"]);
  });

  test("a held line does not keep the process alive, and is written when it ends", async () => {
    const { stdout, code } = await runScript(`logger.info("quiet end");`);
    expect(code).toBe(0);
    expect(messages(stdout)).toEqual(["quiet end"]);
  });
});
