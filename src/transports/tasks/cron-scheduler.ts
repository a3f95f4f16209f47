import type { Logger } from "../../core/logger";
import { nextRunAfter, type Recurrence } from "./schedules";

export interface CronTask {
  action: string;
  queue: string;
  recurrence: Extract<Recurrence, { cron: string }>;
}

/** The longest wait a Node.js timer takes (about 24.8 days): a later tick is waited for in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Fires each cron task at its ticks. A tick is the time its expression names, the same in every
 * process, so `fire` can decide which process enqueues. Only ticks from the start on are fired:
 * a tick that passed while no process ran is skipped, not caught up.
 */
export class CronScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly tasks: readonly CronTask[],
    /** `tick` and `nextTick` are Unix ms; `nextTick` is undefined when the expression has none. */
    private readonly fire: (task: CronTask, tick: number, nextTick: number | undefined) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const now = Date.now();
    for (const task of this.tasks) this.arm(task, nextRunAfter(task.recurrence, now));
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private arm(task: CronTask, tick: number | undefined): void {
    if (this.stopped || tick === undefined) return;
    const wait = tick - Date.now();
    const timer =
      wait > LONGEST_TIMER_MS ? setTimeout(() => this.arm(task, tick), LONGEST_TIMER_MS) : setTimeout(() => void this.ring(task, tick), Math.max(0, wait));
    // A schedule alone does not keep a process running.
    timer.unref();
    this.timers.set(task.action, timer);
  }

  private async ring(task: CronTask, tick: number): Promise<void> {
    const next = nextRunAfter(task.recurrence, tick);
    try {
      await this.fire(task, tick, next);
    } catch (error) {
      this.logger.error({ err: error, action: task.action, tick: new Date(tick).toISOString() }, "could not enqueue a cron task");
    }
    // The next tick after this one, or after now if firing took past it: a late process skips what it missed.
    this.arm(task, next !== undefined && next > Date.now() ? next : nextRunAfter(task.recurrence, Date.now()));
  }
}
