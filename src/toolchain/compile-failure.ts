/** What SWC's Rust side appends to an error when RUST_BACKTRACE is set: its own native frames. */
const NATIVE_BACKTRACE = /\n+Stack backtrace:\n[\s\S]*$/;
/** The cause SWC gives a syntax error, which says nothing its code frame does not. */
const SYNTAX_ERROR_CAUSE = /\n+Caused by:\n\s+Syntax Error\s*$/;

/**
 * What SWC reports of code it cannot compile, as the developer needs it: the code frame of each
 * error, once, without the native backtrace and without a JavaScript stack, whose frames are the
 * compiler's and the module loader's (the frame names the file, line and column). A syntax error
 * is a SyntaxError, as Node reports one in JavaScript it loads.
 */
export function compileFailure(thrown: unknown): unknown {
  if (!(thrown instanceof Error)) return thrown;
  // Trimmed at the start too: the message follows "Could not load <file>: " on its first line.
  const message = thrown.message.replace(NATIVE_BACKTRACE, "").trim();
  const failure = SYNTAX_ERROR_CAUSE.test(message) ? new SyntaxError(message.replace(SYNTAX_ERROR_CAUSE, "").trimEnd()) : new Error(message);
  failure.stack = `${failure.name}: ${failure.message}`;
  return failure;
}
