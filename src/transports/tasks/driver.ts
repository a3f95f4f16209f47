import type { JobInput } from "../../core/asked-questions";
import type { JobCaller } from "../../core/job-caller";
import type { RedisPersistence } from "./redis-persistence";
import type { ErrorBody } from "../../core/error-body";
import type { TraceCarrier } from "../../core/tracing";

/** What a queued job carries: the action to run and its raw (not yet validated) params. */
export interface JobPayload {
  action: string;
  params: Record<string, unknown>;
  /** Set on the children of a fan-out, so their outcome is collected there. */
  fanOut?: { id: string; index: number };
  /** Set on a recurring task's job: the period (Unix time / frequency) it was queued for. */
  period?: number;
  /** Set on a cron task's job: the tick (Unix ms) it was queued for. */
  tick?: number;
  /** Set by a driver on a job whose id the caller gave, and so claimed for de-duplication. */
  idClaimed?: true;
  /** The trace context of the `send` span that queued it, when tracing was on: its runs are that span's children. */
  trace?: TraceCarrier;
  /** Set on a job queued to be watched: its events are published (job-events.ts); `retries` tells a final failure from one retried. */
  watch?: { retries: number };
  /** Set on a job that may ask its caller for input (an MCP task's): what the caller can answer, and has. */
  input?: JobInput;
  /** Set on a job that runs for the caller of the call that queued it (an MCP task's): its token and session. */
  caller?: JobCaller;
}

export interface Backoff {
  strategy: "fixed" | "exponential";
  /** The wait before the first retry; `exponential` doubles it for each next one. */
  delayMs: number;
}

export interface NewJob {
  payload: JobPayload;
  /** Given ids de-duplicate: a second job with the same id is not queued while the first is known. */
  jobId?: string;
  delayMs?: number;
  /** Retries after the first failed attempt; 0 fails the job at its first error. */
  retries: number;
  backoff: Backoff;
}

export type JobStatus = "waiting" | "delayed" | "active" | "succeeded" | "failed";

export type JobError = ErrorBody["error"];

/** What a running job last said of its progress (`connection.reportProgress`). */
export interface JobProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface JobInfo {
  id: string;
  queue: string;
  action: string;
  params: Record<string, unknown>;
  status: JobStatus;
  /** Attempts that have ended so far (a stalled attempt that was cut off does not count). */
  attempts: number;
  /** What `run` returned, for a succeeded job, kept for the result retention time. */
  result?: unknown;
  /** The error body of the last failed attempt. */
  error?: JobError;
  fanOut?: { id: string; index: number };
  /** What the job last reported of its progress, kept as long as the job. */
  progress?: JobProgress;
  /** What the job may ask its caller, for a job that may (see JobPayload.input). */
  input?: JobInput;
}

export interface QueueStats {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** Jobs that succeeded since the queue's keys were made (in process: since the start); a job run again counts again. */
  completed: number;
}

/** A recurring or cron task's run, as the process that queued it recorded it for every process to read. */
export interface ScheduledRun {
  /** When it was queued (Unix ms). */
  at: number;
  jobId: string;
}

/** A job handed to a worker. */
export interface RunningJob {
  id: string;
  queue: string;
  payload: JobPayload;
  attempt: number;
  /**
   * The attempt's own controller: the driver aborts it when the worker is stopping and the job's
   * time is up. The handler may abort it too (the dispatcher does on a timeout): that fails the
   * attempt as any error does, where the driver's abort cuts it off.
   */
  controller: AbortController;
  /** Keeps what the job reports of its progress, for whoever reads the job (MCP's tasks/get). */
  reportProgress(progress: JobProgress): Promise<void>;
}

/** Resolves with the job's result, or rejects with a `JobFailure` (any other error is wrapped). */
export type JobHandler = (job: RunningJob) => Promise<unknown>;

export interface FanOutRecord {
  id: string;
  action: string;
  queue: string;
  total: number;
  createdAt: number;
}

/** The final outcome of one child of a fan-out. */
export type ChildOutcome = { ok: true; result: unknown } | { ok: false; error: JobError };

export interface FanOutProgress extends FanOutRecord {
  succeeded: number;
  failed: number;
  pending: number;
  complete: boolean;
  /** Index-aligned with the params list; `null` where a child has not succeeded (yet). */
  results: unknown[];
  errors: { index: number; error: JobError }[];
}

/**
 * A queue backend. Two implement it, with one contract test suite: bee-queue on Redis for
 * production and several processes, and an in-process one for development without Redis.
 */
export interface QueueDriver {
  readonly kind: "redis" | "memory";
  /** Fails when the backend is unreachable. */
  ping(): Promise<void>;
  /** What the backend keeps across its own restart; absent where it keeps nothing by design (in process). */
  persistence?(): Promise<RedisPersistence>;
  /** Queues the jobs (pipelined where the backend can) and returns their ids, in order. */
  enqueue(queue: string, jobs: readonly NewJob[]): Promise<string[]>;
  /** Starts taking jobs of the queue, at most `concurrency` at once. */
  process(queue: string, concurrency: number, handler: JobHandler): Promise<void>;
  getJob(queue: string, id: string): Promise<JobInfo | undefined>;
  stats(queue: string): Promise<QueueStats>;
  failed(queue: string, limit: number): Promise<JobInfo[]>;
  /** Puts a failed job back to waiting; false when no failed job has that id. */
  retry(queue: string, id: string): Promise<boolean>;
  remove(queue: string, id: string): Promise<void>;
  /** Aborts the signal of a job this process runs, with `reason`; false when it runs none of that id. */
  abort(queue: string, id: string, reason: unknown): boolean;
  /**
   * Asks every process sharing the backend to abort the job, as the caller's having left aborts a
   * call (CONNECTION_CLIENT_GONE, with `message`); absent where every job runs in this process.
   */
  abortEverywhere?(queue: string, id: string, message: string): Promise<void>;
  /** Records a fan-out; false when one with that id already exists. */
  createFanOut(record: FanOutRecord): Promise<boolean>;
  fanOut(id: string): Promise<FanOutProgress | undefined>;
  /** Takes a lock that expires by itself; true for exactly one caller among all sharing the backend. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Records the last run a schedule queued, in place of the one before. */
  recordScheduledRun(action: string, run: ScheduledRun): Promise<void>;
  /** The last run each of `actions` queued, aligned with them; undefined where none is recorded. */
  scheduledRuns(actions: readonly string[]): Promise<(ScheduledRun | undefined)[]>;
  /**
   * Stops taking jobs and waits up to `timeoutMs` for the ones in hand. The rest are cut off
   * (their signal fires) and handed out again; resolves with how many were cut off.
   */
  stopWorkers(timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}
