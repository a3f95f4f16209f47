import type { TaskOperations } from "../../core/ports/task-operations";
import { randomUUID } from "node:crypto";
import { Lifecycle, scoped } from "tsyringe";
import { callerScope } from "../../core/caller-scope";
import { clientGone } from "../../core/client-gone";
import type { Connection } from "../../core/connection";
import { CONNECTION_TYPE } from "../../core/constants";
import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";
import { redactSecrets } from "../../core/secret";
import type { JobInput } from "../../core/asked-questions";
import type { JobCaller } from "../../core/job-caller";
import type { Backoff, FanOutProgress, JobInfo, JobPayload, NewJob, QueueDriver, QueueStats } from "./driver";
import { messagingSystem, sendingJobs } from "./job-spans";
import { describeSchedule, type LastRun, recurrenceOf, type ScheduleDescription } from "./schedules";
import { TaskRuntime } from "./runtime";
import { unservedQueueError } from "./unserved-queue";
import { ANY_WATCHER, WatchHandles } from "./watch-handles";

export interface EnqueueOptions {
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
  /** Retries after a failed first attempt; default TASKS_RETRIES (2). */
  retries?: number;
  /** A number is the first wait of an exponential backoff; default TASKS_BACKOFF_MS (1000), exponential. */
  backoff?: number | Backoff;
  /** De-duplicates: while a job with this id is known, enqueueing it again queues nothing. */
  jobId?: string;
  /**
   * One job per key for IDEMPOTENCY_TTL: enqueueing again with the key and the same action and
   * params queues nothing and resolves with the first job's id; with another action or params it
   * is refused (422). Keys are the app's own, shared by every process on its Redis.
   */
  idempotencyKey?: string;
  /**
   * Lets the job ask its caller for input (`connection.ask`), as an MCP task's may: questions of
   * these kinds end the job waiting for their answers (see `resume`); any other is refused 422.
   */
  input?: JobInput;
  /**
   * Runs the job for this caller (`jobCallerOf(connection)`): its connection has the token and
   * the session of the call that queued it, as an MCP task's job has its creator's. Kept with the
   * job, never shown by inspection.
   */
  caller?: JobCaller;
  /**
   * Publishes the job's progress and outcome for its watchers (see `watchHandle`); without it a
   * job publishes nothing, and costs no round trip more. On a fan-out: its children's ends.
   */
  watch?: boolean;
}

/** Who may watch a job: the caller of this connection (its `callerScope`), a caller scope the app names, or anyone holding the handle. */
export type JobWatcher = Connection | { owner: string } | "anyone";

/** A job queued to be watched: where it is, and the handle its watcher passes to `tasks:watch`. */
export interface WatchedJob {
  jobId: string;
  queue: string;
  handle: string;
}

export interface FanOutOptions extends Omit<EnqueueOptions, "jobId" | "delayMs" | "idempotencyKey" | "input" | "caller"> {
  /** Makes the fan-out idempotent: calling again with the same id queues no child twice. */
  id?: string;
}

type Params = Record<string, unknown>;

/** How long an enqueue holds its idempotency key before a retry may take it over: far longer than queueing one job takes. */
const ENQUEUE_HOLD_MS = 30_000;

/**
 * Queues background tasks. Inject it into an action, an initializer or a service; the dispatcher
 * checks each call here as it would check it arriving (the action may be called as a task, its
 * params are within bounds and valid), so a bad enqueue fails at once, not in a worker.
 */
@scoped(Lifecycle.ContainerScoped)
export class TaskService implements TaskOperations {
  constructor(
    private readonly runtime: TaskRuntime,
    private readonly handles: WatchHandles,
  ) {}

  /** Queues one run of a task action on its queue and returns the job id. */
  async enqueue(actionName: string, params: Params = {}, options: EnqueueOptions = {}): Promise<string> {
    const { idempotencyKey, ...jobOptions } = options;
    const idempotency = this.runtime.server.dispatcher.idempotency;
    if (idempotencyKey === undefined || !idempotency) return this.enqueueOnce(actionName, params, jobOptions);
    const claim = await idempotency.claimIn("tasks", actionName, idempotencyKey, params, ENQUEUE_HOLD_MS);
    if (claim.kind === "refused") throw claim.error;
    if (claim.kind === "replay") return claim.response as string;
    let id: string;
    try {
      id = await this.enqueueOnce(actionName, params, jobOptions);
    } catch (thrown) {
      await claim.release().catch(() => undefined);
      throw thrown;
    }
    await claim.settle({ actionName, status: 200, answer: { kind: "json", text: JSON.stringify(id) } });
    return id;
  }

  /**
   * Runs again a job that ended waiting for its caller's input, with `answers` (those it had
   * before, and the new ones): a new job of the same action and params, whose id it answers.
   */
  async resume(queue: string, jobId: string, answers: JobInput["answers"], caller?: JobCaller): Promise<string> {
    const job = await (await this.appQueue()).getJob(queue, jobId);
    if (!job?.input || job.status !== "failed") {
      throw new TypedError({ message: `Job "${jobId}" of queue "${queue}" is not waiting for input`, type: ErrorType.CONNECTION_CONFLICT, key: "jobId", value: jobId });
    }
    return this.enqueueOnce(job.action, job.params, { input: { kinds: job.input.kinds, answers }, ...(caller ? { caller } : {}) });
  }

  private async enqueueOnce(actionName: string, params: Params, options: Omit<EnqueueOptions, "idempotencyKey">): Promise<string> {
    const registered = this.taskAction(actionName);
    await this.validate(registered, params);
    const { action } = registered;
    const driver = await this.openForJobs();
    const queue = action.task!.queue;
    const jobOptions = this.jobOptions(options);
    const payload: JobPayload = {
      action: action.name,
      params: asJson(params),
      ...(options.input ? { input: options.input } : {}),
      ...(options.caller ? { caller: options.caller } : {}),
      ...(options.watch ? { watch: { retries: jobOptions.retries } } : {}),
    };
    const [id] = await sendingJobs(queue, messagingSystem(driver.kind), 1, (trace) =>
      driver.enqueue(queue, [{ payload: trace ? { ...payload, trace } : payload, ...jobOptions }]),
    );
    return id!;
  }

  /**
   * Queues one child job per params, in batches, and returns a fan-out id whose progress and
   * results `fanOutProgress` reads for TASKS_RESULT_TTL. Every params is validated first.
   */
  async fanOut(actionName: string, paramsList: readonly Params[], options: FanOutOptions = {}): Promise<string> {
    const registered = this.taskAction(actionName);
    const { action } = registered;
    for (const [index, params] of paramsList.entries()) {
      try {
        await this.validate(registered, params);
      } catch (error) {
        throw forItem(error, index);
      }
    }
    const driver = await this.openForJobs();
    const id = options.id ?? randomUUID();
    const queue = action.task!.queue;
    await driver.createFanOut({ id, action: action.name, queue, total: paramsList.length, createdAt: Date.now() });
    const jobOptions = this.jobOptions(options);
    const batch = this.runtime.settings.fanOutBatch;
    await sendingJobs(queue, messagingSystem(driver.kind), paramsList.length, async (trace) => {
      const ids: string[] = [];
      for (let start = 0; start < paramsList.length; start += batch) {
        const jobs: NewJob[] = paramsList.slice(start, start + batch).map((params, offset) => ({
          ...jobOptions,
          payload: {
            action: action.name,
            params: asJson(params),
            fanOut: { id, index: start + offset },
            ...(trace ? { trace } : {}),
            ...(options.watch ? { watch: { retries: jobOptions.retries } } : {}),
          },
          // Child ids derive from the fan-out id, so an idempotent fan-out de-duplicates its children.
          ...(options.id !== undefined ? { jobId: `${id}:${start + offset}` } : {}),
        }));
        ids.push(...(await driver.enqueue(queue, jobs)));
      }
      return ids;
    });
    return id;
  }

  /**
   * Queues a job as `enqueue` does, published for its watchers (`watch: true`), and mints the
   * handle `watcher` passes to `tasks:watch` (`GET /api/jobs/:handle/events`).
   */
  async enqueueWatched(actionName: string, params: Params, watcher: JobWatcher, options: Omit<EnqueueOptions, "watch"> = {}): Promise<WatchedJob> {
    const jobId = await this.enqueue(actionName, params, { ...options, watch: true });
    const queue = this.taskAction(actionName).action.task!.queue;
    return { jobId, queue, handle: this.watchHandle(queue, jobId, watcher) };
  }

  /**
   * The handle of a job for `watcher`: signed with TASKS_WATCH_KEY, read by every process that
   * shares it, refused (403) from any other caller. Only a job queued with `watch` publishes its
   * progress; the outcome of any job is read when the watch begins.
   */
  watchHandle(queue: string, jobId: string, watcher: JobWatcher): string {
    return this.handles.mint({ kind: "job", queue, jobId, owner: ownerOf(watcher) });
  }

  /** The handle of a fan-out (queued with `watch`) for `watcher`: its counts as children end, then its whole progress. */
  fanOutWatchHandle(fanOutId: string, watcher: JobWatcher): string {
    return this.handles.mint({ kind: "fanOut", fanOutId, owner: ownerOf(watcher) });
  }

  /** Counts, results (index-aligned) and errors of a fan-out; undefined once it has expired. */
  async fanOutProgress(fanOutId: string): Promise<FanOutProgress | undefined> {
    return (await this.appQueue()).fanOut(fanOutId);
  }

  /** A job as it stands; its params' secret() fields read `[[secret]]`, as in the logs. */
  async getJob(queue: string, jobId: string): Promise<JobInfo | undefined> {
    const job = await (await this.appQueue()).getJob(queue, jobId);
    return job && this.redacted(job);
  }

  /** Every queue a task action names. */
  queues(): string[] {
    return this.runtime.queues();
  }
  /** Each task that runs by itself (`frequency` or `cron`), how it recurs and when it runs next. */
  schedules(): ScheduleDescription[] {
    const now = Date.now();
    return this.runtime.taskActions().flatMap(({ name, action }) => {
      const recurrence = recurrenceOf(name, action);
      return recurrence ? [describeSchedule({ action: name, queue: action.task!.queue, recurrence }, now)] : [];
    });
  }

  /** `schedules`, each with its last run as the process that queued it recorded it (null before the first). */
  async schedulesWithLastRun(): Promise<(ScheduleDescription & { lastRun: LastRun | null })[]> {
    const driver = await this.appQueue();
    const schedules = this.schedules();
    const runs = await driver.scheduledRuns(schedules.map((schedule) => schedule.action));
    return Promise.all(
      schedules.map(async (schedule, index) => {
        const run = runs[index];
        if (!run) return { ...schedule, lastRun: null };
        const job = await driver.getJob(schedule.queue, run.jobId);
        return { ...schedule, lastRun: { queuedAt: new Date(run.at).toISOString(), jobId: run.jobId, status: job?.status ?? null } };
      }),
    );
  }


  /** Waiting, active, delayed, failed and completed counts, of one queue or of every queue. */
  async stats(queue?: string): Promise<Record<string, QueueStats>> {
    const driver = await this.appQueue();
    const queues = queue ? [queue] : this.queues();
    return Object.fromEntries(await Promise.all(queues.map(async (name) => [name, await driver.stats(name)] as const)));
  }

  /** Failed jobs of a queue, with the error body of their last attempt. */
  async failed(queue: string, { limit = 100 }: { limit?: number } = {}): Promise<JobInfo[]> {
    return (await (await this.appQueue()).failed(queue, limit)).map((job) => this.redacted(job));
  }

  /** What inspection shows of a job: never the value of a secret() param (`herald tasks failed` prints it). */
  private redacted(job: JobInfo): JobInfo {
    const inputs = this.runtime.server.registry.get(job.action)?.action.inputs;
    return { ...job, params: redactSecrets(inputs, job.params) as Record<string, unknown> };
  }

  /** Queues a failed job again (one more attempt); false when the queue has no failed job of that id. */
  async retry(queue: string, jobId: string): Promise<boolean> {
    return (await this.appQueue()).retry(queue, jobId);
  }

  async remove(queue: string, jobId: string): Promise<void> {
    await (await this.appQueue()).remove(queue, jobId);
  }

  async cancel(queue: string, jobId: string, message: string): Promise<boolean> {
    const driver = await this.appQueue();
    if (driver.abort(queue, jobId, clientGone(message))) return true;
    const job = await driver.getJob(queue, jobId);
    if (job?.status === "waiting" || job?.status === "delayed") {
      await driver.remove(queue, jobId);
      return true;
    }
    if (job?.status !== "active" || !driver.abortEverywhere) return false;
    await driver.abortEverywhere(queue, jobId, message);
    return true;
  }

  get resultTtlMs(): number {
    return this.runtime.settings.resultTtlMs;
  }

  /** Refuses params a worker's call of `registered` would refuse: bounded and validated by the dispatcher. */
  private async validate(registered: RegisteredAction, params: Params): Promise<void> {
    await this.runtime.server.dispatcher.validate(registered, params);
  }

  private taskAction(actionName: string): RegisteredAction {
    // Refused as a task call would be: an action the task transport may not call does not exist for it.
    const registered = this.runtime.server.dispatcher.find(actionName, CONNECTION_TYPE.task);
    if (!registered.action.task) {
      throw new TypedError({
        message: `Action "${actionName}" has no "task" property, so it cannot be queued`,
        type: ErrorType.CONNECTION_TASK_DEFINITION,
        key: "action",
        value: actionName,
      });
    }
    return registered;
  }

  /** The driver of the app's queue, to queue on; refused where a job queued would never run. */
  private async openForJobs(): Promise<QueueDriver> {
    if (this.runtime.queueIsUnserved) {
      throw unservedQueueError(this.runtime, `A task queued from this ${this.runtime.server.runMode} process would never run`);
    }
    return this.runtime.driver();
  }

  /** The driver of the app's queue, to read; refused where this process's own queue would be shown as the app's. */
  private async appQueue(): Promise<QueueDriver> {
    if (this.runtime.queueIsUnserved) {
      throw unservedQueueError(this.runtime, `This ${this.runtime.server.runMode} process cannot see the app's task queue`);
    }
    return this.runtime.driver();
  }

  private jobOptions(options: EnqueueOptions): Omit<NewJob, "payload"> {
    const settings = this.runtime.settings;
    const retries = options.retries ?? settings.retries;
    const backoff: Backoff =
      typeof options.backoff === "object"
        ? options.backoff
        : { strategy: "exponential", delayMs: options.backoff ?? settings.backoffMs };
    if (!Number.isInteger(retries) || retries < 0 || !Number.isInteger(backoff.delayMs) || backoff.delayMs < 0) {
      throw new TypedError({
        message: "retries and backoff must be whole numbers of at least 0",
        type: ErrorType.CONNECTION_TASK_DEFINITION,
      });
    }
    return {
      retries,
      backoff,
      ...(options.delayMs !== undefined ? { delayMs: Math.max(0, Math.round(options.delayMs)) } : {}),
      ...(options.jobId !== undefined ? { jobId: options.jobId } : {}),
    };
  }
}

function ownerOf(watcher: JobWatcher): string {
  if (watcher === "anyone") return ANY_WATCHER;
  return "owner" in watcher ? watcher.owner : callerScope(watcher);
}

/** Params as they will be stored: JSON, so a Date becomes its ISO string on every driver alike. */
function asJson(params: Params): Params {
  return JSON.parse(JSON.stringify(params ?? {})) as Params;
}

function forItem(error: unknown, index: number): unknown {
  if (!(error instanceof TypedError)) return error;
  return new TypedError({
    message: `Fan-out item ${index}: ${error.message}`,
    type: error.type,
    key: error.key ? `${index}.${error.key}` : String(index),
    ...(error.value !== undefined ? { value: error.value } : {}),
    ...(error.issues ? { issues: error.issues.map((issue) => ({ ...issue, path: [index, ...issue.path] })) } : {}),
  });
}
