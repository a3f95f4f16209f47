import { tokenFor } from "../token-for";

/**
 * What operators do to queues (the `herald tasks` commands), as a core token so that the CLI
 * reaches the task transport without importing it. The task transport registers its service here.
 */
export abstract class TaskOperations {
  abstract enqueue(actionName: string, params?: Record<string, unknown>, options?: { delayMs?: number; jobId?: string }): Promise<string>;
  abstract stats(queue?: string): Promise<Record<string, unknown>>;
  abstract failed(queue: string, options?: { limit?: number }): Promise<unknown[]>;
  abstract retry(queue: string, jobId: string): Promise<boolean>;
  abstract queues(): string[] | Promise<string[]>;
  /** Each task that runs by itself: its action, queue, `every` (ms) or `cron` (and `timezone`), and `nextRun` (ISO time). */
  abstract schedules(): Record<string, unknown>[];
}

export const TASK_OPERATIONS = tokenFor(TaskOperations);
