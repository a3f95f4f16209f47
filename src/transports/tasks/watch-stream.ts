/**
 * A mailbox of one reader: `take` resolves with the next item, or undefined once closed. An item
 * `replaces` the one last queued when it says so (a progress report the previous one, unread),
 * so a slow reader holds the latest of each, not every one.
 */
export class Inbox<T> {
  private readonly items: T[] = [];
  private waiter: ((item: T | undefined) => void) | undefined;
  private closed = false;

  constructor(private readonly replaces: (next: T, last: T) => boolean = () => false) {}

  push(item: T): void {
    if (this.closed) return;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter(item);
      return;
    }
    const last = this.items.at(-1);
    if (last !== undefined && this.replaces(item, last)) this.items[this.items.length - 1] = item;
    else this.items.push(item);
  }

  take(): Promise<T | undefined> {
    if (this.items.length) return Promise.resolve(this.items.shift());
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** Wakes a waiting `take` with undefined, and drops what is unread. */
  close(): void {
    this.closed = true;
    this.items.length = 0;
    this.waiter?.(undefined);
    this.waiter = undefined;
  }
}

export interface WatchStreamSource<Item, Event> {
  /** The events an item of the inbox stands for (none, one, or several); a throw ends the stream with it. */
  interpret(item: Item): Promise<Event[]>;
  isFinal(event: Event): boolean;
  /** Lets go of the subscription and the timer; called once, however the stream ends. */
  release(): Promise<void>;
}

/**
 * The events of a watch, as the iterator a streaming action returns: first `initial`, then what
 * the inbox brings, until a final event (handed out, then the stream is done) or until the reader
 * lets go. Written by hand rather than as an async generator: a generator waiting for its next
 * event would hold a `return()` back until that event came, and the dispatcher closes the stream
 * with `return()` when the caller leaves.
 */
export class WatchStream<Item, Event> implements AsyncIterableIterator<Event> {
  private readonly ready: Event[];
  private closed = false;

  constructor(
    initial: readonly Event[],
    private readonly inbox: Inbox<Item>,
    private readonly source: WatchStreamSource<Item, Event>,
  ) {
    this.ready = [...initial];
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Event, undefined>> {
    for (;;) {
      const event = this.ready.shift();
      if (event !== undefined) {
        if (this.source.isFinal(event)) await this.close();
        return { done: false, value: event };
      }
      if (this.closed) return { done: true, value: undefined };
      const item = await this.inbox.take();
      if (item === undefined) {
        await this.close();
        continue;
      }
      try {
        if (!this.closed) this.ready.push(...(await this.source.interpret(item)));
      } catch (thrown) {
        await this.close();
        throw thrown;
      }
    }
  }

  async return(): Promise<IteratorResult<Event, undefined>> {
    await this.close();
    return { done: true, value: undefined };
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ready.length = 0;
    this.inbox.close();
    await this.source.release();
  }
}
