import { compileFailure } from "../../src/toolchain/compile-failure";

const FRAME = "  x Expected ',', got ';'\n   ,-[/app/actions/probe.ts:6:1]\n 6 |     return { version: 4 ;\n   :                         ^\n   `----";

test("a syntax error SWC reports is its code frame once, as a SyntaxError, without SWC's cause, native backtrace or JavaScript stack", () => {
  const thrown = new Error(`${FRAME}\n\n\nCaused by:\n    Syntax Error\n\nStack backtrace:\n   0: <unknown>\n   1: _ZN6v8impl12_GLOBAL__N_123FunctionCallbackWrapper6InvokeERKN2v820FunctionCallbackInfoINS2_5ValueEEE\n`);
  const failure = compileFailure(thrown) as Error;
  expect(failure).toBeInstanceOf(SyntaxError);
  expect(failure.message).toBe(FRAME.trimStart());
  expect(failure.stack).toBe(`SyntaxError: ${FRAME.trimStart()}`);
});

test("another failure of SWC keeps its cause, and loses only the backtrace", () => {
  const failure = compileFailure(new Error("failed to read config\n\nCaused by:\n    0: no such file\n\nStack backtrace:\n   0: <unknown>")) as Error;
  expect(failure).not.toBeInstanceOf(SyntaxError);
  expect(failure.message).toBe("failed to read config\n\nCaused by:\n    0: no such file");
});

test("what is not an Error is left as it is", () => {
  expect(compileFailure("odd")).toBe("odd");
});
