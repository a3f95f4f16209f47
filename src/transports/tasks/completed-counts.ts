/** How long a worker keeps its count of succeeded jobs before adding it to Redis. */
export const COMPLETED_FLUSH_MS = 1000;

/**
 * The succeeded jobs of each queue, counted by the process whose workers ran them and added to
 * Redis at most once a second (one INCRBY a queue), rather than one INCR a job: a command a job
 * cost a worker a tenth of its time. What is not added yet is added when the workers stop, and
 * before this process reads a count; a process killed outright loses at most its last second's.
 */
export class CompletedCounts {
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  /** `add` adds `count` to the queue's count in Redis. */
  constructor(
    private readonly add: (queue: string, count: number) => Promise<unknown>,
    private readonly onError: (error: unknown, queue: string) => void,
  ) {}

  count(queue: string): void {
    this.pending.set(queue, (this.pending.get(queue) ?? 0) + 1);
    this.timer ??= setTimeout(() => void this.flush(), COMPLETED_FLUSH_MS).unref();
  }

  /** Adds every count kept so far; resolves once Redis has them, or said why not. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const flushed = [...this.pending];
    this.pending.clear();
    await Promise.all(flushed.map(([queue, count]) => this.add(queue, count).catch((error: unknown) => this.onError(error, queue))));
  }
}
