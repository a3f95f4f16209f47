/** A deadline waiting in a queue: unlinked when its call ends first. */
interface Deadline {
  at: number;
  expire: () => void;
  prev: Deadline | undefined;
  next: Deadline | undefined;
}

/**
 * The deadlines of calls that share one timeout, under one timer. Deadlines added with the same
 * timeout expire in the order they were added, so the queue is a list with the next deadline at
 * its head: adding and cancelling one costs a link and an unlink, where a timer per call costs a
 * `setTimeout` and a `clearTimeout` (Node's timer list insert, a share of every call's time on
 * every transport under load: docs/performance.md). The timer is armed for the head; when it
 * fires early (its head ended meanwhile) it re-arms for the new head. While the queue is empty it
 * stays armed but unref'd, so it keeps no idle process alive, as a cleared timer would not.
 */
export class DeadlineQueue {
  private head: Deadline | undefined;
  private tail: Deadline | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly timeoutMs: number) {}

  /** Runs `expire` once `timeoutMs` have passed, unless the returned cancel runs first. */
  add(expire: () => void): () => void {
    const deadline: Deadline = { at: performance.now() + this.timeoutMs, expire, prev: this.tail, next: undefined };
    if (this.tail) this.tail.next = deadline;
    else this.head = deadline;
    this.tail = deadline;
    if (!this.timer) this.timer = setTimeout(this.fire, this.timeoutMs);
    else if (!this.timer.hasRef()) this.timer.ref();
    return () => this.remove(deadline);
  }

  /** How many deadlines wait: for tests. */
  get size(): number {
    let count = 0;
    for (let deadline = this.head; deadline; deadline = deadline.next) count += 1;
    return count;
  }

  private remove(deadline: Deadline): void {
    // Expired or cancelled already: its links were cleared then.
    if (deadline.prev === undefined && this.head !== deadline) return;
    if (deadline.prev) deadline.prev.next = deadline.next;
    else this.head = deadline.next;
    if (deadline.next) deadline.next.prev = deadline.prev;
    else this.tail = deadline.prev;
    deadline.prev = deadline.next = undefined;
    // Left armed, but no longer keeping the process alive: a call that starts and ends within one
    // turn, as most do, would otherwise clear it and set a new one each time.
    if (!this.head) this.timer?.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = performance.now();
    while (this.head && this.head.at <= now) {
      const expired = this.head;
      this.remove(expired);
      expired.expire();
    }
    if (this.head) this.timer ??= setTimeout(this.fire, Math.max(1, Math.ceil(this.head.at - now)));
  };
}

const queues = new Map<number, DeadlineQueue>();

/** The queue of the deadlines `timeoutMs` away: one per timeout in use, and an app uses a few. */
export function deadlineQueue(timeoutMs: number): DeadlineQueue {
  let queue = queues.get(timeoutMs);
  if (!queue) {
    queue = new DeadlineQueue(timeoutMs);
    queues.set(timeoutMs, queue);
  }
  return queue;
}
