import { start as startRepl, type REPLServer } from "node:repl";
import { PassThrough, Writable } from "node:stream";
import { onLineError, replacePrompt, wrapEvaluation } from "../../src/toolchain/repl-internals";

/**
 * What `herald console` relies on of Node's REPL beyond its declared API, against the Node
 * running the tests: when a release moves it, this fails, rather than a piped script's lines
 * running all at once again or its errors going unnoticed.
 */
function quietRepl(): { repl: REPLServer; written: string[] } {
  const written: string[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  const repl = startRepl({ prompt: "> ", input: new PassThrough(), output, terminal: false, useGlobal: false, ignoreUndefined: true });
  return { repl, written };
}

/** Writes one line, and resolves once the REPL is ready for the next. */
function line(repl: REPLServer, ready: { next?: () => void }, text: string): Promise<void> {
  const done = new Promise<void>((resolve) => (ready.next = resolve));
  repl.write(`${text}\n`);
  return done;
}

test("the REPL asks for its next line through displayPrompt, once an awaited line has settled", async () => {
  const { repl, written } = quietRepl();
  const ready: { next?: () => void } = {};
  replacePrompt(repl, () => ready.next?.());
  await line(repl, ready, "await new Promise((resolve) => setTimeout(() => resolve(42), 20))");
  // The prompt it showed as it started, and none after the line.
  expect(written.join("")).toBe("> 42\n");
  repl.close();
});

test("a line's error reaches the REPL's domain, and each line is evaluated through repl.eval", async () => {
  const { repl, written } = quietRepl();
  const ready: { next?: () => void } = {};
  const errors: unknown[] = [];
  const evaluated: string[] = [];
  replacePrompt(repl, () => ready.next?.());
  onLineError(repl, (error) => errors.push(error));
  wrapEvaluation(repl, (evaluate) =>
    function (code, context, file, finish) {
      evaluated.push(code);
      evaluate.call(this, code, context, file, finish);
    },
  );
  await line(repl, ready, 'throw new Error("thrown")');
  await line(repl, ready, 'await Promise.reject(new Error("rejected"))');
  await line(repl, ready, "const kept = 1");
  await line(repl, ready, "kept + 1");
  expect(errors.map((error) => (error as Error).message)).toEqual(["thrown", "rejected"]);
  expect(evaluated.map((code) => code.trim())).toEqual(['throw new Error("thrown")', 'await Promise.reject(new Error("rejected"))', "const kept = 1", "kept + 1"]);
  expect(written.join("")).toContain("Uncaught Error: rejected");
  expect(written.join("")).toMatch(/2\n$/);
  repl.close();
});
