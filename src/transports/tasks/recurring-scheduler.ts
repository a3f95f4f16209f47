import type { Logger } from "../../core/logger";

export interface RecurringTask {
  action: string;
  queue: string;
  frequency: number;
}

/**
 * Fires each recurring task once per period. Periods are counted from the Unix epoch
 * (period = floor(now / frequency)), so every process agrees on them; `fire` decides which
 * process enqueues. Only the current period is ever fired: after a restart there is no catch-up.
 */
export class RecurringScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly tasks: readonly RecurringTask[],
    private readonly fire: (task: RecurringTask, period: number) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    for (const task of this.tasks) void this.tick(task);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private async tick(task: RecurringTask): Promise<void> {
    if (this.stopped) return;
    const period = Math.floor(Date.now() / task.frequency);
    try {
      await this.fire(task, period);
    } catch (error) {
      this.logger.error({ err: error, action: task.action, period }, "could not enqueue a recurring task");
    }
    if (this.stopped) return;
    const untilNextPeriod = (period + 1) * task.frequency - Date.now();
    this.timers.set(task.action, setTimeout(() => void this.tick(task), Math.max(1, untilNextPeriod)));
  }
}
