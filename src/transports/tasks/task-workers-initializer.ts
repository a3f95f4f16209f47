import { injectable } from "tsyringe";
import { ErrorType, TypedError } from "../../core/errors";
import { APP_INITIALIZERS, type Initializer } from "../../core/initializer";
import { HeraldServer } from "../../core/server";
import { parseParams } from "../../core/validation";
import { jobRunner } from "./job-runner";
import { messagingSystem } from "./job-spans";
import { RecurringScheduler, RecurringTask } from "./recurring-scheduler";
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
  private working = false;

  constructor(
    private readonly runtime: TaskRuntime,
    private readonly server: HeraldServer,
  ) {}

  async start(): Promise<void> {
    const recurring = await this.recurringTasks();
    const settings = this.runtime.settings;
    const queues = settings.queues ?? this.runtime.queues();
    if (!queues.length && !recurring.length) return;
    const driver = await this.runtime.driver();
    const { meter } = this.server.metrics;
    const runner = jobRunner(this.server, messagingSystem(driver.kind));
    // Required only with metrics on, which load the messaging conventions.
    const run = meter ? (require("./job-metrics") as typeof import("./job-metrics")).measuredJobs(meter, runner) : runner;
    this.working = true;
    for (const queue of queues) {
      await driver.process(queue, queueConcurrency(queue, settings, this.server.config), run);
    }
    this.scheduler = new RecurringScheduler(recurring, (task, period) => this.fire(task, period), this.server.logger);
    this.scheduler.start();
  }

  async stop(): Promise<void> {
    this.scheduler?.stop();
    if (!this.working) return;
    this.working = false;
    const timeoutMs = this.runtime.settings.stopTimeoutMs;
    const cutOff = await (await this.runtime.driver()).stopWorkers(timeoutMs);
    if (cutOff) {
      this.server.logger.warn({ jobs: cutOff, timeoutMs }, "jobs cut off by the stop; another worker will run them again");
    }
  }

  /** One enqueue per period for all processes sharing the backend: the first to claim the period. */
  private async fire(task: RecurringTask, period: number): Promise<void> {
    const driver = await this.runtime.driver();
    // Twice the period, so a process whose clock lags still finds the claim.
    if (await driver.claim(`recurring:${task.action}:${period}`, task.frequency * 2)) {
      const { retries, backoffMs } = this.runtime.settings;
      await driver.enqueue(task.queue, [
        { payload: { action: task.action, params: {}, period }, retries, backoff: { strategy: "exponential", delayMs: backoffMs } },
      ]);
    }
  }

  /** Recurring tasks run without params, so their inputs must all have defaults: checked at boot. */
  private async recurringTasks(): Promise<RecurringTask[]> {
    const recurring: RecurringTask[] = [];
    for (const { action } of this.runtime.taskActions()) {
      const frequency = action.task!.frequency;
      if (frequency === undefined) continue;
      if (!Number.isFinite(frequency) || frequency <= 0) {
        throw new TypedError({
          message: `Action "${action.name}" has task.frequency ${frequency}; it must be a number of milliseconds above 0`,
          type: ErrorType.CONNECTION_TASK_DEFINITION,
        });
      }
      try {
        await parseParams(action.inputs, {});
      } catch (cause) {
        throw new TypedError({
          message: `Recurring task "${action.name}" runs without params, but its inputs need some: ${(cause as Error).message}`,
          type: ErrorType.CONNECTION_TASK_DEFINITION,
          cause,
        });
      }
      recurring.push({ action: action.name, queue: action.task!.queue, frequency });
    }
    return recurring;
  }
}
