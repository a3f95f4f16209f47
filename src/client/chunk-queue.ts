/**
 * The values of a streaming call, kept from the moment they arrive until the caller reads them:
 * the socket cannot make the server wait for a slow reader.
 */
export class ChunkQueue<T> {
  private readonly values: T[] = [];
  private ending: { error: unknown } | "done" | undefined;
  private wake: (() => void) | undefined;

  push(value: T): void {
    this.values.push(value);
    this.notify();
  }

  /** No more values: reading ends once the kept ones are read. */
  finish(): void {
    this.ending ??= "done";
    this.notify();
  }

  /** Reading throws `error` once the kept values are read. */
  fail(error: unknown): void {
    this.ending ??= { error };
    this.notify();
  }

  async *read(): AsyncGenerator<T, void, undefined> {
    for (;;) {
      if (this.values.length > 0) {
        yield this.values.shift()!;
        continue;
      }
      if (this.ending === "done") return;
      if (this.ending) throw this.ending.error;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
