import { randomUUID } from "node:crypto";
import BeeQueue from "bee-queue";
import type { Redis } from "ioredis";
import { clientGone } from "../../core/client-gone";
import type { Logger } from "../../core/logger";
import { RedisConnection } from "../../redis/connection";
import { redisUnavailable } from "../../redis/failure";
import { reconnectDelayMs } from "../../redis/reconnect";
import type { FanOutProgress, FanOutRecord, JobHandler, JobInfo, JobPayload, JobProgress, JobStatus, NewJob, QueueDriver, QueueStats, ScheduledRun } from "./driver";
import { queueCommandClient } from "./bee-queue-internals";
import { runForgottenScriptsByEval } from "./bee-queue-scripts";
import { asJobFailure } from "./job-failure";
import { readRedisPersistence, RedisPersistence } from "./redis-persistence";
import { jobInfoOf, JobRecord, RedisRecords } from "./redis-records";

export interface BeeQueueDriverOptions {
  redisUrl: string;
  /** Every key of this driver starts with it, so several apps (or test files) share one Redis. */
  prefix: string;
  resultTtlMs: number;
  /** A job whose worker has not checked in for this long is handed to another worker. */
  stallIntervalMs: number;
  /** `jobId` when the error is about one job (its outcome could not be stored). */
  onError?: (error: Error, queue: string, jobId?: string) => void;
  /** Where the loss and the return of the driver's own Redis connection are reported. */
  logger?: Logger;
}

interface Worker {
  queue: BeeQueue<JobPayload>;
  /** The controller of each job in hand, by id. */
  running: Map<string, AbortController>;
  stopping: boolean;
}

/** Thrown into bee-queue for a job cut off by a stop: it stays active and the stall check retries it. */
class CutOff extends Error {}

/** How long a queue's first connection may take before an enqueue gives up on it. */
const PRODUCER_READY_TIMEOUT_MS = 5000;

/** What the driver's errors and log lines name. */
const SERVICE = "the task queue";

/**
 * Queues on Redis through bee-queue: any worker of any process takes any job, at least once.
 * bee-queue itself (with its own `redis` client) moves jobs; Herald's records live beside it, on
 * a RedisConnection opened at first use.
 */
export class BeeQueueDriver implements QueueDriver {
  readonly kind = "redis";
  private readonly connection: RedisConnection;
  private readonly redis: Redis;
  private readonly records: RedisRecords;
  private readonly producers = new Map<string, BeeQueue<JobPayload>>();
  private readonly workers = new Map<string, Worker>();
  /** The subscription to abort requests, made with the first worker: only a process with workers has jobs to abort. */
  private aborts: RedisConnection | undefined;

  constructor(private readonly options: BeeQueueDriverOptions) {
    this.connection = new RedisConnection({
      url: options.redisUrl,
      service: SERVICE,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
    this.redis = this.connection.client;
    this.records = new RedisRecords(this.redis, options.prefix, options.resultTtlMs, (command) => this.backend(command), (error, queue) => options.onError?.(error as Error, queue));
  }

  ping(): Promise<void> {
    return this.backend(() => this.connection.ping());
  }

  persistence(): Promise<RedisPersistence> {
    return this.backend(() => readRedisPersistence(this.redis));
  }

  enqueue(queue: string, newJobs: readonly NewJob[]): Promise<string[]> {
    return this.backend(() => this.save(queue, newJobs));
  }

  /** A backend call, on the connection opened at first use; its Redis failure is CONNECTION_SERVICE_UNAVAILABLE. */
  private async backend<T>(work: () => Promise<T>): Promise<T> {
    await this.connection.opened();
    try {
      return await work();
    } catch (cause) {
      throw redisUnavailable(SERVICE, cause);
    }
  }

  private async save(queue: string, newJobs: readonly NewJob[]): Promise<string[]> {
    const producer = await this.readyProducer(queue);
    const ids = newJobs.map((newJob) => newJob.jobId ?? randomUUID());
    const given = newJobs.flatMap((newJob, index) =>
      newJob.jobId === undefined ? [] : [{ index, id: ids[index]!, ttlMs: (newJob.delayMs ?? 0) + this.options.resultTtlMs }],
    );
    const claimed = await this.records.claimJobIds(queue, given);
    const taken = new Set(given.filter((_, at) => !claimed[at]).map(({ index }) => index));
    const toSave: BeeQueue.Job<JobPayload>[] = [];
    for (const [index, newJob] of newJobs.entries()) {
      if (taken.has(index)) continue;
      const id = ids[index]!;
      const payload: JobPayload = newJob.jobId === undefined ? newJob.payload : { ...newJob.payload, idClaimed: true };
      const job = producer.createJob(payload).setId(id).retries(newJob.retries);
      if (newJob.backoff.delayMs > 0) job.backoff(newJob.backoff.strategy, newJob.backoff.delayMs);
      if (newJob.delayMs && newJob.delayMs > 0) job.delayUntil(Date.now() + newJob.delayMs);
      toSave.push(job);
    }
    if (toSave.length) {
      const errors = await producer
        .saveAll(toSave)
        .catch((error: Error) => new Map(toSave.map((job) => [job, error] as const)));
      if (errors.size) {
        // The ids of jobs that were never saved must not block a later enqueue of them.
        await this.records.releaseJobIds(queue, [...errors.keys()].map((job) => job.id)).catch(() => undefined);
        throw errors.values().next().value;
      }
    }
    return ids;
  }

  async process(queue: string, concurrency: number, handler: JobHandler): Promise<void> {
    if (this.workers.has(queue)) throw new Error(`Queue "${queue}" already has a worker in this process`);
    const worker: Worker = { queue: this.createQueue(queue, true), running: new Map(), stopping: false };
    this.workers.set(queue, worker);
    await this.listenForAborts();
    await worker.queue.ready();
    worker.queue.process(concurrency, (job: BeeQueue.Job<JobPayload>) => this.runJob(worker, queue, job, handler));
    worker.queue.checkStalledJobs(Math.max(50, Math.floor(this.options.stallIntervalMs / 2))).catch((error: Error) => {
      this.options.onError?.(error, queue);
    });
  }

  getJob(queue: string, id: string): Promise<JobInfo | undefined> {
    return this.backend(() => this.readJob(queue, id));
  }

  private async readJob(queue: string, id: string): Promise<JobInfo | undefined> {
    const key = (part: string) => this.records.queueKey(queue, part);
    const replies = (await this.redis
      .multi()
      .hget(key("jobs"), id)
      .sismember(key("failed"), id)
      .zscore(key("delayed"), id)
      .lpos(key("active"), id)
      .get(this.records.progressKey(queue, id))
      .exec()) as [Error | null, unknown][];
    const [raw, failed, delayedAt, activeAt, progress] = replies.map(([, value]) => value);
    const [record] = await this.records.records(queue, [id]);
    const payload = raw ? (JSON.parse(raw as string) as { data: JobPayload }).data : record?.payload;
    if (!payload) return undefined;
    const status: JobStatus | undefined =
      failed === 1 ? "failed"
      : delayedAt !== null ? "delayed"
      : activeAt !== null ? "active"
      : raw ? "waiting"
      : record?.status === "succeeded" ? "succeeded"
      : undefined;
    if (!status) return undefined;
    const info = jobInfoOf(queue, id, payload, status, record);
    return progress ? { ...info, progress: JSON.parse(progress as string) as JobProgress } : info;
  }

  async stats(queue: string): Promise<QueueStats> {
    const [health, completed] = await this.backend(async () => {
      const producer = await this.readyProducer(queue);
      return Promise.all([producer.checkHealth(), this.records.completed(queue)]);
    });
    return { waiting: health.waiting, active: health.active, delayed: health.delayed, failed: health.failed, completed };
  }

  async failed(queue: string, limit: number): Promise<JobInfo[]> {
    const { jobs, records } = await this.backend(async () => {
      const jobs = await (await this.readyProducer(queue)).getJobs("failed", { size: limit });
      return { jobs, records: await this.records.records(queue, jobs.map((job) => job.id)) };
    });
    return jobs.map((job, index) => {
      const record = records[index];
      const stacktrace = (job.options.stacktraces as string[] | undefined)?.[0];
      const fallback = stacktrace ? asJobFailure(new Error(stacktrace.split("\n")[0])).body : undefined;
      return jobInfoOf(queue, job.id, job.data, "failed", record ?? (fallback ? { error: fallback } : undefined));
    });
  }

  retry(queue: string, id: string): Promise<boolean> {
    return this.backend(() => this.records.retryFailed(queue, id));
  }

  abort(queue: string, id: string, reason: unknown): boolean {
    const controller = this.workers.get(queue)?.running.get(id);
    controller?.abort(reason);
    return controller !== undefined;
  }

  remove(queue: string, id: string): Promise<void> {
    return this.backend(async () => {
      await (await this.readyProducer(queue)).removeJob(id);
      await this.records.forget(queue, id);
    });
  }

  createFanOut(record: FanOutRecord): Promise<boolean> {
    return this.backend(() => this.records.createFanOut(record));
  }

  fanOut(id: string): Promise<FanOutProgress | undefined> {
    return this.backend(() => this.records.fanOut(id));
  }

  claim(key: string, ttlMs: number): Promise<boolean> {
    return this.backend(() => this.records.claim(key, ttlMs));
  }

  recordScheduledRun(action: string, run: ScheduledRun): Promise<void> {
    return this.backend(() => this.records.recordScheduledRun(action, run));
  }

  scheduledRuns(actions: readonly string[]): Promise<(ScheduledRun | undefined)[]> {
    return this.backend(() => this.records.scheduledRuns(actions));
  }

  async stopWorkers(timeoutMs: number): Promise<number> {
    const workers = [...this.workers.values()];
    this.workers.clear();
    for (const worker of workers) worker.stopping = true;
    // bee-queue treats a timeout of 0 as "use the default"; 1 ms is the nearest to "do not wait".
    await Promise.all(workers.map((worker) => worker.queue.close(Math.max(1, timeoutMs)).catch(() => undefined)));
    // On the driver's own connection, open until close(): the jobs that ended while the workers stopped are counted too.
    await this.records.completedCounts.flush();
    // After close, a job still running can no longer be marked done: it stays active, and the
    // stall check of a live worker hands it out again.
    let cutOff = 0;
    for (const worker of workers) {
      for (const controller of worker.running.values()) {
        controller.abort(new CutOff("worker stopped"));
        cutOff += 1;
      }
    }
    return cutOff;
  }

  async abortEverywhere(queue: string, id: string, message: string): Promise<void> {
    await this.backend(() => this.redis.publish(this.abortChannel, JSON.stringify({ queue, id, message })));
  }

  private get abortChannel(): string {
    return `${this.options.prefix}:abort`;
  }

  /** Aborts a job of this process that another process asked to abort (abortEverywhere). */
  private async listenForAborts(): Promise<void> {
    if (this.aborts) return;
    this.aborts = new RedisConnection({
      url: this.options.redisUrl,
      service: SERVICE,
      ...(this.options.logger === undefined ? {} : { logger: this.options.logger }),
    });
    const subscriber = this.aborts.client;
    subscriber.on("message", (_channel: string, text: string) => {
      try {
        const { queue, id, message } = JSON.parse(text) as { queue: string; id: string; message: string };
        this.abort(queue, id, clientGone(message));
      } catch {
        // Not a message of this driver's.
      }
    });
    await this.aborts.opened();
    // ioredis subscribes again by itself after a reconnection.
    await subscriber.subscribe(this.abortChannel).catch((error: Error) => this.options.onError?.(error, "abort requests"));
  }

  async close(): Promise<void> {
    await this.aborts?.close();
    this.aborts = undefined;
    await this.stopWorkers(1);
    const producers = [...this.producers.values()];
    this.producers.clear();
    await Promise.all(producers.map((producer) => producer.close().catch(() => undefined)));
    await this.connection.close();
  }

  /**
   * The queue's producer, connected; a producer that cannot connect in time fails rather than waits
   * (it goes on connecting for the next call). One whose first connection failed is dropped, so the
   * next call opens a new one: bee-queue never retries a queue's first connection once its ready
   * check has failed (a ready check cut off by a dropped connection rejects `ready()` for good).
   */
  private async readyProducer(queue: string): Promise<BeeQueue<JobPayload>> {
    // A first producer would wait for its connection: while the driver's own one is not up, say so now.
    if (!this.producers.has(queue) && this.redis.status !== "ready") throw new Error(`Redis is not connected (${this.redis.status})`);
    const producer = this.producer(queue);
    const ready = producer.ready().catch((error: unknown) => {
      if (this.producers.get(queue) === producer) this.producers.delete(queue);
      throw error;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not connected within ${PRODUCER_READY_TIMEOUT_MS} ms`)), PRODUCER_READY_TIMEOUT_MS);
    });
    try {
      return await Promise.race([ready, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private producer(queue: string): BeeQueue<JobPayload> {
    let producer = this.producers.get(queue);
    if (!producer) this.producers.set(queue, (producer = this.createQueue(queue, false)));
    return producer;
  }

  private createQueue(queue: string, isWorker: boolean): BeeQueue<JobPayload> {
    const created = new BeeQueue<JobPayload>(queue, {
      prefix: this.records.beeQueuePrefix,
      // A producer must not queue commands while Redis is away: its callers get a 503 at once
      // instead of a request hanging until Redis returns. A worker keeps the offline queue, so
      // its waiting BRPOPLPUSH goes out as soon as the connection is back.
      redis: {
        url: this.options.redisUrl,
        // node_redis's own reconnection delay grows without bound (×1.7 a try): after a long
        // outage a queue would come back minutes after Redis. The policy of every connection instead.
        retry_strategy: ({ attempt }: { attempt: number }) => reconnectDelayMs(attempt),
        ...(isWorker ? {} : { enable_offline_queue: false }),
      },
      isWorker,
      getEvents: false,
      sendEvents: false,
      storeJobs: false,
      activateDelayedJobs: isWorker,
      delayedDebounce: 100,
      removeOnSuccess: true,
      removeOnFailure: false,
      stallInterval: this.options.stallIntervalMs,
    });
    runForgottenScriptsByEval(created as BeeQueue<unknown>);
    created.on("error", (error: Error) => {
      // A cut-off job cannot be marked done after close; stopWorkers counts those already.
      if (error instanceof CutOff || /^unable to update the status/.test(error.message)) return;
      this.options.onError?.(error, queue);
    });
    return created;
  }

  /**
   * On the connection bee-queue marks the job done with, just before it does: Redis stores the
   * outcome first, and the job's slot does not wait for a round trip of its own.
   */
  private saveAttempt(worker: Worker, queue: string, id: string, record: JobRecord): void {
    this.records.saveAttempt(queueCommandClient(worker.queue), queue, id, record, (error) => {
      // A worker whose queue is closing cannot mark the job done either: it runs again.
      if (!worker.stopping) this.options.onError?.(error, queue, id);
    });
  }

  private async runJob(worker: Worker, queue: string, job: BeeQueue.Job<JobPayload>, handler: JobHandler): Promise<null> {
    const controller = new AbortController();
    worker.running.set(job.id, controller);
    const attempts = ((job.options.stacktraces as unknown[] | undefined)?.length ?? 0) + 1;
    const payload = job.data;
    try {
      let result: unknown;
      try {
        result = await handler({
          id: job.id,
          queue,
          payload,
          attempt: attempts,
          controller,
          reportProgress: (progress) => this.backend(() => this.records.saveProgress(queue, job.id, progress)),
        });
      } catch (thrown) {
        if (isCutOff(controller)) throw new CutOff("worker stopped");
        const failure = asJobFailure(thrown);
        // bee-queue reads the retries left from the job: none left means a final failure.
        if (!failure.retryable) job.options.retries = 0;
        const status = job.options.retries > 0 ? "retrying" : "failed";
        this.saveAttempt(worker, queue, job.id, { payload, status, attempts, error: failure.body });
        throw failure;
      }
      if (isCutOff(controller)) throw new CutOff("worker stopped");
      this.saveAttempt(worker, queue, job.id, { payload, status: "succeeded", attempts, result });
      return null;
    } finally {
      if (worker.running.get(job.id) === controller) worker.running.delete(job.id);
    }
  }
}

/** Aborted by stopWorkers, not by the handler itself (the dispatcher aborts it on a timeout). */
function isCutOff(controller: AbortController): boolean {
  return controller.signal.reason instanceof CutOff;
}
