import { createInterface } from "node:readline";
import { Recoverable, start as startRepl } from "node:repl";
import { PassThrough, Writable, type Readable } from "node:stream";
import { onLineError, replacePrompt, wrapEvaluation } from "./repl-internals";

export interface ConsoleScriptStreams {
  /** The script: one REPL line a line. */
  input: Readable;
  /** Where the results go. */
  stdout: Writable;
  /** Where the error of the line that failed goes, and why the script ended early. */
  stderr: Writable;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as PromiseLike<unknown>).then === "function";
}

/**
 * `herald console < seed.txt`: the lines of a script run one after the other in a REPL holding
 * `context`, each done (its `await`, and a promise it results in) before the next is read, so a
 * line can use what the line before it made, and the app is not stopped under a line still
 * running. The results are written as the REPL writes them, with no prompt; the first line that
 * fails ends the script, as `node < script.js` ends at its first uncaught error, since the lines
 * after it were written for a state it did not reach. Resolves with whether every line ran.
 */
export async function runConsoleScript(context: Record<string, unknown>, streams: ConsoleScriptStreams): Promise<boolean> {
  let reportingError = false;
  // Written at once, so each chunk goes where the REPL meant it when it wrote it.
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      (reportingError ? streams.stderr : streams.stdout).write(chunk);
      done();
    },
  });
  const repl = startRepl({ prompt: "", input: new PassThrough(), output, terminal: false, useGlobal: false, ignoreUndefined: true });
  Object.assign(repl.context, context);
  const exited = new Promise<"exited">((resolve) => repl.once("exit", () => resolve("exited")));

  let lineDone: (() => void) | undefined;
  let failed = false;
  let unfinished = false;
  replacePrompt(repl, () => {
    reportingError = false;
    lineDone?.();
  });
  onLineError(repl, () => {
    failed = true;
    reportingError = true;
  });
  wrapEvaluation(repl, (evaluate) =>
    function evaluateLine(code, evaluationContext, file, finish) {
      evaluate.call(this, code, evaluationContext, file, (error, result) => {
        unfinished = error instanceof Recoverable;
        if (error || !isThenable(result)) return finish(error, result);
        result.then(
          (value) => finish(null, value),
          (rejection: unknown) => finish(rejection instanceof Error ? rejection : new Error(`Promise rejected with ${String(rejection)}`), undefined),
        );
      });
    },
  );

  let lineNumber = 0;
  let ended = false;
  for await (const line of createInterface({ input: streams.input, crlfDelay: Infinity })) {
    lineNumber += 1;
    const done = new Promise<"done">((resolve) => (lineDone = () => resolve("done")));
    repl.write(`${line}\n`);
    ended = (await Promise.race([done, exited])) === "exited";
    if (ended || failed) break;
  }
  if (!ended) repl.close();
  await exited;
  if (failed) streams.stderr.write(`herald console: line ${lineNumber} failed; the lines after it were not run\n`);
  else if (unfinished) streams.stderr.write("herald console: the input ended inside an unfinished expression, which was not run\n");
  return !failed && !unfinished;
}
