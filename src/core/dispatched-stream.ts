import type { z } from "zod";
import { clientGone } from "./client-gone";
import type { ErrorBody } from "./error-body";
import type { TypedError } from "./errors";
import { outputMismatch } from "./output-check";
import type { ResponseCodec } from "./response-codec";

const STOPPED = Symbol("stopped");

/**
 * How a stream ended, for the dispatcher to finish its call: `thrown` when it did not run to its
 * end (a failure, the signal's reason, a reader that let go), and `closed` once the action's
 * iterator has settled, so that runAfter never runs beside a body still writing. Answers the
 * call's final error, if any.
 */
export type StreamEnd = (failed: boolean, thrown: unknown, closed: Promise<void>) => Promise<TypedError | undefined>;

async function close(iterator: AsyncIterator<unknown>): Promise<void> {
  try {
    await iterator.return?.();
  } catch {
    // Closing is all that is asked of it: how its cleanup failed is no part of the call's outcome.
  }
}

/**
 * A streaming action's response as the dispatcher hands it to a transport: each value the action
 * yields as its JSON text, encoded here, once, so that a value JSON cannot carry ends the call
 * rather than a transport's write. The call lasts as long as the stream: it ends when the action's
 * iterable is done or throws, when the call's signal aborts (its deadline, a caller who left, a
 * shutdown) or when the reader stops reading (`return()`); the reader then gets the call's outcome
 * as `next()`'s end or its throw. A signal's reason is thrown at once; a stream's own end waits for
 * the middleware's runAfter, whose failure it then throws. With `outputs`, each value is checked
 * against them first, and one they do not describe ends the call with that mismatch. The call's
 * error, once thrown, becomes its caller's body through `errorBody`.
 */
export class DispatchedStream implements AsyncIterableIterator<string> {
  private readonly iterator: AsyncIterator<unknown>;
  /** Wakes the read under way when the stream is stopped from outside. */
  private wake: ((step: typeof STOPPED) => void) | undefined;
  private readonly onAbort = () => void this.finish(true, this.signal.reason, false);
  private ending: Promise<TypedError | undefined> | undefined;
  /** Whether the reader has been told how the stream ended. */
  private told = false;

  constructor(
    source: AsyncIterable<unknown>,
    private readonly actionName: string,
    private readonly signal: AbortSignal,
    private readonly end: StreamEnd,
    private readonly codec: ResponseCodec,
    private readonly outputs?: z.ZodType,
  ) {
    this.iterator = source[Symbol.asyncIterator]();
    if (signal.aborted) this.onAbort();
    else signal.addEventListener("abort", this.onAbort, { once: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<string, undefined>> {
    if (!this.ending) {
      let step: IteratorResult<unknown> | typeof STOPPED;
      try {
        // Not Promise.race against one promise of the stop: each race would leave a reaction on it until the stream ends.
        step = await new Promise<IteratorResult<unknown> | typeof STOPPED>((resolve, reject) => {
          this.wake = resolve;
          this.iterator.next().then(resolve, reject);
        });
      } catch (thrown) {
        return this.tell(await this.finish(true, thrown, true));
      }
      if (step !== STOPPED) {
        if (step.done) return this.tell(await this.finish(false, undefined, true));
        let text: string;
        try {
          const mismatch = this.outputs && (await outputMismatch(this.actionName, this.outputs, step.value));
          if (mismatch) throw mismatch;
          text = this.codec.encode(this.actionName, step.value);
        } catch (thrown) {
          return this.tell(await this.finish(true, thrown, false));
        }
        return { done: false, value: text };
      }
    }
    // Stopped from outside: the signal's reason is the outcome, without waiting for the action to settle.
    return this.tell(this.signal.aborted ? this.signal.reason : undefined);
  }

  /** What a reader that caught the stream's throw sends its caller: the error body, as this environment shows it. */
  errorBody(thrown: unknown): ErrorBody {
    return this.codec.errorBody(thrown);
  }

  /** The reader stops reading: the call ends as its signal's reason, or as a caller who left. */
  async return(): Promise<IteratorResult<string, undefined>> {
    this.told = true;
    const reason = this.signal.aborted ? this.signal.reason : clientGone("The reader stopped before the stream's end");
    await this.finish(true, reason, false);
    return { done: true, value: undefined };
  }

  private tell(error: unknown): IteratorResult<string, undefined> {
    if (error !== undefined && !this.told) {
      this.told = true;
      throw error;
    }
    this.told = true;
    return { done: true, value: undefined };
  }

  private finish(failed: boolean, thrown: unknown, settled: boolean): Promise<TypedError | undefined> {
    if (this.ending) return this.ending;
    this.signal.removeEventListener("abort", this.onAbort);
    this.wake?.(STOPPED);
    // What an abort made the action throw is not its failure: the abort's reason is the outcome.
    if (this.signal.aborted) {
      failed = true;
      thrown = this.signal.reason;
    }
    this.ending = this.end(failed, thrown, settled ? Promise.resolve() : close(this.iterator));
    return this.ending;
  }
}
