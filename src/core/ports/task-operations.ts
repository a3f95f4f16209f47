import type { JobInput } from "../asked-questions";
import type { ErrorBody } from "../error-body";
import type { JobCaller } from "../job-caller";
import { tokenFor } from "../token-for";

/** A job as another transport shows it (MCP's tasks): where it stands, and its outcome once it has one. */
export interface JobOutcome {
  /** The action the job runs. */
  action: string;
  status: "waiting" | "delayed" | "active" | "succeeded" | "failed";
  /** What `run` returned, for a succeeded job. */
  result?: unknown;
  /** The error body of the last failed attempt. */
  error?: ErrorBody["error"];
  /** What the job last reported (`connection.reportProgress`). */
  progress?: { progress: number; total?: number; message?: string };
  /** What the job may ask its caller, for one that may. */
  input?: JobInput;
}

/**
 * What operators do to queues (the `herald tasks` commands), as a core token so that the CLI
 * reaches the task transport without importing it. The task transport registers its service here.
 */
export abstract class TaskOperations {
  abstract enqueue(actionName: string, params?: Record<string, unknown>, options?: { delayMs?: number; jobId?: string; retries?: number; input?: JobInput; caller?: JobCaller }): Promise<string>;
  /** Runs again, with `answers`, a job that ended waiting for its caller's input, for `caller`; answers the new job's id. */
  abstract resume(queue: string, jobId: string, answers: JobInput["answers"], caller?: JobCaller): Promise<string>;
  abstract stats(queue?: string): Promise<Record<string, unknown>>;
  abstract failed(queue: string, options?: { limit?: number }): Promise<unknown[]>;
  abstract retry(queue: string, jobId: string): Promise<boolean>;
  abstract queues(): string[] | Promise<string[]>;
  /** Each task that runs by itself: its action, queue, `every` (ms) or `cron` (and `timezone`), and `nextRun` (ISO time). */
  abstract schedules(): Record<string, unknown>[];
  /** The job as it stands; undefined once it is gone (removed, or its outcome expired). */
  abstract getJob(queue: string, jobId: string): Promise<JobOutcome | undefined>;
  /**
   * Stops a job: a waiting or delayed one is removed; a running one has its signal aborted, in
   * whichever process runs it, as a call whose caller left (CONNECTION_CLIENT_GONE, `message`), so
   * it fails without a retry. False for a job that has ended, or is unknown.
   */
  abstract cancel(queue: string, jobId: string, message: string): Promise<boolean>;
  /** Forgets a job, whatever its state: a waiting one never runs. */
  abstract remove(queue: string, jobId: string): Promise<void>;
  /** How long a job's outcome is kept after it ends (TASKS_RESULT_TTL), in milliseconds. */
  abstract readonly resultTtlMs: number;
}

export const TASK_OPERATIONS = tokenFor(TaskOperations);
