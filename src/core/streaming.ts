import type { ActionDefinition } from "./action";
import { ErrorType, TypedError } from "./errors";

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === "object" && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

function isAsyncGeneratorFunction(run: unknown): boolean {
  return Object.prototype.toString.call(run) === "[object AsyncGeneratorFunction]";
}

/**
 * Whether the action streams its response: its `run` is an `async *run`, or it sets
 * `web.streaming`. Known at boot, so a transport that cannot stream refuses the action then,
 * rather than answering its first caller with something else.
 */
export function isStreamingAction(action: ActionDefinition): boolean {
  return action.web?.streaming === true || isAsyncGeneratorFunction(action.run);
}

/** The boot error of a transport that cannot carry a streaming action. */
export function cannotStream(action: ActionDefinition, where: string, remedy: string): TypedError {
  const how = isAsyncGeneratorFunction(action.run) ? "async *run" : "web.streaming";
  return new TypedError({
    message: `Action "${action.name}" streams its response (${how}), which ${where} cannot carry: ${remedy}`,
    type: ErrorType.SERVER_INITIALIZATION,
    key: "action",
    value: action.name,
  });
}

function untilAborted(signal: AbortSignal): Promise<"aborted"> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve("aborted");
    signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
}

/**
 * Reads a streaming action's values one at a time, handing each to `write` (awaited, so a slow
 * reader slows the action down), until the iterable is done or `signal` aborts; then the iterator
 * is closed and nothing more is read. An error thrown by the iterable is thrown; returns whether
 * the stream ran to its end.
 */
export async function forEachChunk(
  source: AsyncIterable<unknown>,
  signal: AbortSignal,
  write: (value: unknown) => void | Promise<void>,
): Promise<boolean> {
  const iterator = source[Symbol.asyncIterator]();
  const aborted = untilAborted(signal);
  for (;;) {
    const next = await Promise.race([iterator.next(), aborted]);
    if (next === "aborted") {
      iterator.return?.()?.catch(() => undefined);
      return false;
    }
    if (next.done) return true;
    await write(next.value);
    if (signal.aborted) {
      iterator.return?.()?.catch(() => undefined);
      return false;
    }
  }
}
