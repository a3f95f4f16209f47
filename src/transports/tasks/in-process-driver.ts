import { randomUUID } from "node:crypto";
import type {
  ChildOutcome,
  FanOutProgress,
  FanOutRecord,
  JobHandler,
  JobInfo,
  JobPayload,
  NewJob,
  QueueDriver,
  QueueStats,
  ScheduledRun,
} from "./driver";
import { summarizeFanOut } from "./fan-out";
import { asJobFailure } from "./job-failure";

interface MemoryJob extends Pick<JobInfo, "id" | "queue" | "status" | "attempts" | "result" | "error" | "progress"> {
  payload: JobPayload;
  retries: number;
  backoff: NewJob["backoff"];
  /** When a succeeded job is forgotten. */
  expiresAt?: number;
  timer?: NodeJS.Timeout;
}

interface Worker {
  concurrency: number;
  handler: JobHandler;
  stopping: boolean;
  running: Map<string, { done: Promise<void>; controller: AbortController }>;
}

interface FanOutEntry {
  record: FanOutRecord;
  outcomes: Map<number, ChildOutcome>;
  expiresAt: number;
}

export interface InProcessDriverOptions {
  /** How long results of succeeded jobs and fan-out progress are kept. */
  resultTtlMs: number;
}

const clone = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

/**
 * Queues held in this process's memory, with the contract of the Redis driver: delay, retries
 * with backoff, results and failures. Nothing is shared with other processes or survives a restart.
 */
export class InProcessDriver implements QueueDriver {
  readonly kind = "memory";
  private readonly jobs = new Map<string, Map<string, MemoryJob>>();
  private readonly waiting = new Map<string, string[]>();
  private readonly workers = new Map<string, Worker>();
  private readonly fanOuts = new Map<string, FanOutEntry>();
  private readonly claims = new Map<string, number>();
  /** Succeeded jobs by queue, as the Redis driver counts them. */
  private readonly completed = new Map<string, number>();
  private readonly scheduled = new Map<string, ScheduledRun>();
  /** Succeeded jobs in the order they expire (the retention time is one for all). */
  private readonly expiring: MemoryJob[] = [];

  constructor(private readonly options: InProcessDriverOptions) {}

  async ping(): Promise<void> {}

  async enqueue(queue: string, newJobs: readonly NewJob[]): Promise<string[]> {
    this.forgetExpired();
    return newJobs.map((newJob) => {
      const id = newJob.jobId ?? randomUUID();
      if (this.find(queue, id)) return id;
      const job: MemoryJob = {
        id,
        queue,
        payload: clone(newJob.payload),
        status: "waiting",
        attempts: 0,
        retries: newJob.retries,
        backoff: { ...newJob.backoff },
      };
      this.jobsOf(queue).set(id, job);
      if (newJob.delayMs && newJob.delayMs > 0) this.delay(job, newJob.delayMs);
      else this.makeWaiting(job);
      return id;
    });
  }

  async process(queue: string, concurrency: number, handler: JobHandler): Promise<void> {
    if (this.workers.has(queue)) throw new Error(`Queue "${queue}" already has a worker in this process`);
    this.workers.set(queue, { concurrency, handler, stopping: false, running: new Map() });
    this.pump(queue);
  }

  async getJob(queue: string, id: string): Promise<JobInfo | undefined> {
    const job = this.find(queue, id);
    return job ? this.info(job) : undefined;
  }

  async stats(queue: string): Promise<QueueStats> {
    const stats: QueueStats = { waiting: 0, active: 0, delayed: 0, failed: 0, completed: this.completed.get(queue) ?? 0 };
    for (const job of this.jobsOf(queue).values()) {
      if (job.status !== "succeeded") stats[job.status] += 1;
    }
    return stats;
  }

  async failed(queue: string, limit: number): Promise<JobInfo[]> {
    return [...this.jobsOf(queue).values()]
      .filter((job) => job.status === "failed")
      .slice(0, limit)
      .map((job) => this.info(job));
  }

  async retry(queue: string, id: string): Promise<boolean> {
    const job = this.find(queue, id);
    if (job?.status !== "failed") return false;
    this.makeWaiting(job);
    return true;
  }

  abort(queue: string, id: string, reason: unknown): boolean {
    const run = this.workers.get(queue)?.running.get(id);
    run?.controller.abort(reason);
    return run !== undefined;
  }

  async remove(queue: string, id: string): Promise<void> {
    const job = this.jobsOf(queue).get(id);
    if (!job) return;
    clearTimeout(job.timer);
    this.jobsOf(queue).delete(id);
    const waiting = this.waitingOf(queue);
    if (waiting.includes(id)) waiting.splice(waiting.indexOf(id), 1);
  }

  async createFanOut(record: FanOutRecord): Promise<boolean> {
    for (const id of this.fanOuts.keys()) this.liveFanOut(id);
    if (this.liveFanOut(record.id)) return false;
    this.fanOuts.set(record.id, {
      record: { ...record },
      outcomes: new Map(),
      expiresAt: Date.now() + this.options.resultTtlMs,
    });
    return true;
  }

  async fanOut(id: string): Promise<FanOutProgress | undefined> {
    const entry = this.liveFanOut(id);
    return entry ? clone(summarizeFanOut(entry.record, entry.outcomes)) : undefined;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    if ((this.claims.get(key) ?? 0) > now) return false;
    this.claims.set(key, now + ttlMs);
    for (const [other, expiresAt] of this.claims) if (expiresAt <= now) this.claims.delete(other);
    return true;
  }

  async recordScheduledRun(action: string, run: ScheduledRun): Promise<void> {
    this.scheduled.set(action, { ...run });
  }

  async scheduledRuns(actions: readonly string[]): Promise<(ScheduledRun | undefined)[]> {
    return actions.map((action) => clone(this.scheduled.get(action)));
  }

  async stopWorkers(timeoutMs: number): Promise<number> {
    const workers = [...this.workers];
    for (const [, worker] of workers) worker.stopping = true;
    const inHand = workers.flatMap(([, worker]) => [...worker.running.values()].map((run) => run.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(inHand),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]).finally(() => clearTimeout(timer));
    let cutOff = 0;
    for (const [queue, worker] of workers) {
      for (const [id, run] of worker.running) {
        run.controller.abort(new Error("The worker stopped before the job finished"));
        const job = this.jobsOf(queue).get(id);
        if (job) this.makeWaiting(job, true);
        cutOff += 1;
      }
      worker.running.clear();
      this.workers.delete(queue);
    }
    return cutOff;
  }

  async close(): Promise<void> {
    await this.stopWorkers(0);
    for (const queueJobs of this.jobs.values()) for (const job of queueJobs.values()) clearTimeout(job.timer);
    this.jobs.clear();
    this.expiring.length = 0;
    this.waiting.clear();
    this.fanOuts.clear();
    this.claims.clear();
    this.completed.clear();
    this.scheduled.clear();
  }

  private jobsOf(queue: string): Map<string, MemoryJob> {
    let queueJobs = this.jobs.get(queue);
    if (!queueJobs) this.jobs.set(queue, (queueJobs = new Map()));
    return queueJobs;
  }

  private waitingOf(queue: string): string[] {
    let ids = this.waiting.get(queue);
    if (!ids) this.waiting.set(queue, (ids = []));
    return ids;
  }

  /** The job, unless it succeeded longer ago than the retention time. */
  private find(queue: string, id: string): MemoryJob | undefined {
    const job = this.jobsOf(queue).get(id);
    if (job?.expiresAt !== undefined && job.expiresAt <= Date.now()) {
      this.jobsOf(queue).delete(id);
      return undefined;
    }
    return job;
  }

  private forgetExpired(): void {
    const now = Date.now();
    while (this.expiring.length && this.expiring[0]!.expiresAt! <= now) {
      const job = this.expiring.shift()!;
      // The id may belong to a newer job by now, queued after this one expired.
      if (this.jobsOf(job.queue).get(job.id) === job) this.jobsOf(job.queue).delete(job.id);
    }
  }

  private liveFanOut(id: string): FanOutEntry | undefined {
    const entry = this.fanOuts.get(id);
    if (entry && entry.expiresAt <= Date.now()) this.fanOuts.delete(id);
    return this.fanOuts.get(id);
  }

  private info(job: MemoryJob): JobInfo {
    const { payload } = job;
    return clone({
      id: job.id,
      queue: job.queue,
      action: payload.action,
      params: payload.params,
      status: job.status,
      attempts: job.attempts,
      ...(job.status === "succeeded" ? { result: job.result } : {}),
      ...(job.progress ? { progress: job.progress } : {}),
      ...(job.error ? { error: job.error } : {}),
      ...(payload.fanOut ? { fanOut: payload.fanOut } : {}),
      ...(payload.input ? { input: payload.input } : {}),
    });
  }

  private makeWaiting(job: MemoryJob, first = false): void {
    clearTimeout(job.timer);
    delete job.timer;
    job.status = "waiting";
    const waiting = this.waitingOf(job.queue);
    if (first) waiting.unshift(job.id);
    else waiting.push(job.id);
    this.pump(job.queue);
  }

  private delay(job: MemoryJob, delayMs: number): void {
    job.status = "delayed";
    job.timer = setTimeout(() => this.makeWaiting(job), delayMs);
  }

  private pump(queue: string): void {
    const worker = this.workers.get(queue);
    const waiting = this.waitingOf(queue);
    while (worker && !worker.stopping && worker.running.size < worker.concurrency && waiting.length) {
      const job = this.jobsOf(queue).get(waiting.shift()!);
      if (job) this.run(worker, job);
    }
  }

  private run(worker: Worker, job: MemoryJob): void {
    job.status = "active";
    const controller = new AbortController();
    const attempt = job.attempts + 1;
    const running = Promise.resolve().then(() =>
      worker.handler({
        id: job.id,
        queue: job.queue,
        payload: clone(job.payload),
        attempt,
        controller,
        reportProgress: async (progress) => {
          job.progress = { ...progress };
        },
      }),
    );
    const done = running.then(
      (result) => this.settle(worker, job, controller, () => this.succeed(job, result)),
      (thrown: unknown) => this.settle(worker, job, controller, () => this.fail(job, thrown)),
    );
    worker.running.set(job.id, { done, controller });
  }

  /**
   * Records an attempt's end, unless the job was cut off by a stop and handed back already. The
   * controller alone does not tell: the handler aborts it too, on a timeout that fails the attempt.
   */
  private settle(worker: Worker, job: MemoryJob, controller: AbortController, record: () => void): void {
    if (worker.running.get(job.id)?.controller !== controller) return;
    worker.running.delete(job.id);
    job.attempts += 1;
    record();
    this.pump(job.queue);
  }

  private succeed(job: MemoryJob, result: unknown): void {
    job.status = "succeeded";
    job.result = clone(result) ?? null;
    delete job.error;
    job.expiresAt = Date.now() + this.options.resultTtlMs;
    this.expiring.push(job);
    this.completed.set(job.queue, (this.completed.get(job.queue) ?? 0) + 1);
    this.recordChild(job, { ok: true, result: job.result });
  }

  private fail(job: MemoryJob, thrown: unknown): void {
    const failure = asJobFailure(thrown);
    job.error = failure.body;
    if (failure.retryable && job.retries > 0) {
      job.retries -= 1;
      const wait = job.backoff.delayMs;
      if (job.backoff.strategy === "exponential") job.backoff.delayMs *= 2;
      if (wait > 0) this.delay(job, wait);
      else this.makeWaiting(job);
      return;
    }
    job.status = "failed";
    this.recordChild(job, { ok: false, error: failure.body });
  }

  private recordChild(job: MemoryJob, outcome: ChildOutcome): void {
    const { fanOut } = job.payload;
    if (!fanOut) return;
    const entry = this.liveFanOut(fanOut.id);
    if (!entry) return;
    entry.outcomes.set(fanOut.index, outcome);
    entry.expiresAt = Date.now() + this.options.resultTtlMs;
  }
}
