import { injectable } from "tsyringe";
import { ErrorType, TypedError } from "../../core/errors";
import { APP_INITIALIZERS, type Initializer } from "../../core/initializer";
import { HeraldServer } from "../../core/server";
import { parseParams } from "../../core/validation";
import { PUBSUB_DRIVER_TOKEN, type PubSubDriver } from "../../channels/pubsub-driver";
import type { JobHandler } from "./driver";
import { publishingJobEvents } from "./job-events";
import { jobRunner } from "./job-runner";
import { messagingSystem } from "./job-spans";
import { CronScheduler, type CronTask } from "./cron-scheduler";
import type { QueueDriver } from "./driver";
import { RecurringScheduler, RecurringTask } from "./recurring-scheduler";
import { recurrenceOf } from "./schedules";
import { TaskRuntime, WORKER_RUN_MODES } from "./runtime";
import { queueConcurrency } from "./settings";

/**
 * Works the queues and fires recurring tasks, in the server and workers run modes. It starts
 * after the app's initializers and stops before them, so jobs in hand still have their services.
 */
@injectable()
export class TaskWorkersInitializer implements Initializer {
  readonly name = "task-workers";
  readonly runModes = WORKER_RUN_MODES;
  readonly dependsOn = [APP_INITIALIZERS, "tasks", "channels", "rate-limit"];
  private scheduler: RecurringScheduler | undefined;
  private cronScheduler: CronScheduler | undefined;
  private working = false;

  constructor(
    private readonly runtime: TaskRuntime,
    private readonly server: HeraldServer,
  ) {}

  async start(): Promise<void> {
    const { recurring, cron } = await this.recurringTasks();
    const settings = this.runtime.settings;
    const queues = settings.queues ?? this.runtime.queues();
    if (!queues.length && !recurring.length && !cron.length) return;
    const driver = await this.runtime.driver();
    const { meter } = this.server.metrics;
    const runner = this.published(jobRunner(this.server, messagingSystem(driver.kind)));
    // Required only with metrics on, which load the messaging conventions.
    const run = meter ? (require("./job-metrics") as typeof import("./job-metrics")).measuredJobs(meter, runner) : runner;
    this.working = true;
    for (const queue of queues) {
      await driver.process(queue, queueConcurrency(queue, settings, this.server.config), run);
    }
    this.scheduler = new RecurringScheduler(recurring, (task, period) => this.fire(task, period), this.server.logger);
    this.scheduler.start();
    if (cron.length) {
      this.cronScheduler = new CronScheduler(cron, (task, tick, nextTick) => this.fireCron(task, tick, nextTick), this.server.logger);
      this.cronScheduler.start();
    }
  }

  async stop(): Promise<void> {
    this.scheduler?.stop();
    this.cronScheduler?.stop();
    if (!this.working) return;
    this.working = false;
    const timeoutMs = this.runtime.settings.stopTimeoutMs;
    const cutOff = await (await this.runtime.driver()).stopWorkers(timeoutMs);
    if (cutOff) {
      this.server.logger.warn({ jobs: cutOff, timeoutMs }, "jobs cut off by the stop; another worker will run them again");
    }
  }

  /** The runner, publishing the events of watched jobs on the channels' pub/sub (absent only from a server built without channels). */
  private published(runner: JobHandler): JobHandler {
    const { container, logger } = this.server;
    if (!container.isRegistered(PUBSUB_DRIVER_TOKEN, true)) return runner;
    return publishingJobEvents(runner, {
      pubsub: container.resolve<PubSubDriver>(PUBSUB_DRIVER_TOKEN),
      prefix: this.runtime.settings.prefix,
      onError: (error, job) => logger.warn({ err: error, queue: job.queue, jobId: job.id }, "could not publish a watched job's event"),
    });
  }

  /** One enqueue per period for all processes sharing the backend: the first to claim the period. */
  private async fire(task: RecurringTask, period: number): Promise<void> {
    const driver = await this.runtime.driver();
    // Twice the period, so a process whose clock lags still finds the claim.
    if (await driver.claim(`recurring:${task.action}:${period}`, task.frequency * 2)) {
      const { retries, backoffMs } = this.runtime.settings;
      const [jobId] = await driver.enqueue(task.queue, [
        { payload: { action: task.action, params: {}, period }, retries, backoff: { strategy: "exponential", delayMs: backoffMs } },
      ]);
      await this.recordRun(driver, task.action, jobId!);
    }
  }

  /**
   * One enqueue per tick for all processes sharing the backend: the first to claim the tick. The
   * claim outlives the gap to the next tick twice over (a minute at least), so a process whose
   * clock lags, or one restarted at the tick, still finds it.
   */
  private async fireCron(task: CronTask, tick: number, nextTick: number | undefined): Promise<void> {
    const driver = await this.runtime.driver();
    const claimMs = Math.max(60_000, nextTick === undefined ? 86_400_000 : 2 * (nextTick - tick));
    if (await driver.claim(`recurring:${task.action}:cron:${tick}`, claimMs)) {
      const { retries, backoffMs } = this.runtime.settings;
      const [jobId] = await driver.enqueue(task.queue, [
        { payload: { action: task.action, params: {}, tick }, retries, backoff: { strategy: "exponential", delayMs: backoffMs } },
      ]);
      await this.recordRun(driver, task.action, jobId!);
    }
  }

  /** The run the dashboard shows as the schedule's last, for every process; the job is queued whether or not this is stored. */
  private async recordRun(driver: QueueDriver, action: string, jobId: string): Promise<void> {
    await driver.recordScheduledRun(action, { at: Date.now(), jobId }).catch((error: unknown) => {
      this.server.logger.warn({ err: error, action, jobId }, "could not record the last run of a schedule");
    });
  }

  /** Recurring and cron tasks run without params, so their inputs must all have defaults: checked at boot, with their schedules. */
  private async recurringTasks(): Promise<{ recurring: RecurringTask[]; cron: CronTask[] }> {
    const recurring: RecurringTask[] = [];
    const cron: CronTask[] = [];
    for (const { name, action } of this.runtime.taskActions()) {
      const recurrence = recurrenceOf(name, action);
      if (!recurrence) continue;
      try {
        await parseParams(action.inputs, {});
      } catch (cause) {
        throw new TypedError({
          message: `Recurring task "${name}" runs without params, but its inputs need some: ${(cause as Error).message}`,
          type: ErrorType.CONNECTION_TASK_DEFINITION,
          cause,
        });
      }
      const queue = action.task!.queue;
      if ("frequency" in recurrence) recurring.push({ action: name, queue, frequency: recurrence.frequency });
      else cron.push({ action: name, queue, recurrence });
    }
    return { recurring, cron };
  }
}
