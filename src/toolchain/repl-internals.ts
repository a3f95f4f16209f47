import type { REPLEval, REPLServer } from "node:repl";

/*
 * What `herald console` relies on of Node's REPL beyond its declared API, in one place: the REPL
 * has no event for "this line is done", and its own evaluation (top-level `await`, declarations
 * kept from one line to the next) cannot be reused through the `eval` option. When a Node release
 * moves any of this, this file is what changes; test/toolchain/repl-internals.test.ts fails first.
 */

/**
 * Calls `ready` where the REPL would show its prompt: once a line is done (its result written,
 * its `await` settled, its error reported, a `.command` run, or more lines asked for), and shows
 * no prompt.
 */
export function replacePrompt(repl: REPLServer, ready: () => void): void {
  repl.displayPrompt = ready;
}

/**
 * Calls `failed` with what a line threw or rejected with, before the REPL writes it. The REPL
 * reports a line's error to its own domain, not to its evaluation's callback.
 */
export function onLineError(repl: REPLServer, failed: (error: unknown) => void): void {
  (repl as unknown as { _domain: NodeJS.EventEmitter })._domain.prependListener("error", failed);
}

/** Puts `wrap` around the REPL's own evaluation of each line, which it calls as `repl.eval`. */
export function wrapEvaluation(repl: REPLServer, wrap: (evaluate: REPLEval) => REPLEval): void {
  (repl as { eval: REPLEval }).eval = wrap(repl.eval);
}
