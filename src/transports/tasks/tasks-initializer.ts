import { injectable } from "tsyringe";
import type { Initializer } from "../../core/initializer";
import { HeraldServer } from "../../core/server";
import { warnWithoutPersistence } from "./persistence-warning";
import { TaskRuntime } from "./runtime";
import { TaskService } from "./task-service";
import { refuseQueueUsers } from "./unserved-queue";
import { TaskWatchAction } from "./watch-action";
import { WatchHandles } from "./watch-handles";
import { TASK_OPERATIONS } from "../../core/ports/task-operations";
import { cannotStream, isStreamingAction } from "../../core/streaming";
import { mountTasksDashboard, registerTasksDashboardActions } from "./dashboard/tasks-dashboard";

/**
 * Opens the queue driver early (so other initializers can enqueue) and closes it last. In every
 * run mode: cli and mcp processes enqueue too; workers are the "task-workers" initializer's.
 */
@injectable()
export class TasksInitializer implements Initializer {
  readonly name = "tasks";

  constructor(
    private readonly runtime: TaskRuntime,
    private readonly server: HeraldServer,
  ) {}

  register(): void {
    this.server.container.register(TASK_OPERATIONS, { useToken: TaskService });
    if (!this.runtime.runsWorkers) this.server.actionRefusals.push(refuseQueueUsers(this.runtime, new Set([TaskService, TASK_OPERATIONS])));
  }

  /**
   * The dashboard's actions, for an app that turned it on; `tasks:watch`, for an app with task
   * actions: the events of the jobs its callers queued to watch.
   */
  registerActions(): void {
    registerTasksDashboardActions(this.server);
    if (!this.runtime.taskActions().length) return;
    this.server.registry.add(this.server.container.resolve(TaskWatchAction), "herald (built-in)", { builtin: true });
  }

  /**
   * A process with workers connects at boot, to fail fast without Redis. An app without task
   * actions, and a cli or mcp process, connect on first use of TaskService only, so a command
   * that queues nothing does not pay for (or depend on) the connection. A process with workers
   * also says when Redis would lose the queue at its next restart.
   */
  async initialize(): Promise<void> {
    for (const { action } of this.runtime.taskActions()) {
      if (isStreamingAction(action)) {
        throw cannotStream(action, "a background task", 'a job has no caller to stream to; remove its "task", or return a value');
      }
    }
    mountTasksDashboard(this.server);
    if (!this.runtime.queues().length) return;
    // Read at boot, so that a TASKS_WATCH_KEY too short fails it.
    if (this.server.container.resolve(WatchHandles).ownKey && this.runtime.settings.driver === "redis") {
      const { logger, config } = this.server;
      logger[config.production ? "warn" : "info"]("tasks: TASKS_WATCH_KEY is unset, so a job's watch handle is read only by the process that minted it");
    }
    // Calls that enqueue nothing are answered without the queue: down, it makes the server degraded, not down.
    this.server.health.register("queue", async () => (await this.runtime.driver()).ping(), { essential: false });
    const { meter } = this.server.metrics;
    if (meter) {
      const { observeQueueDepth } = require("./job-metrics") as typeof import("./job-metrics");
      observeQueueDepth(meter, this.runtime.settings.queues ?? this.runtime.queues(), () => this.runtime.driver());
    }
    if (this.runtime.runsWorkers) await warnWithoutPersistence(await this.runtime.driver(), this.server.logger);
  }

  async stop(): Promise<void> {
    await this.runtime.close();
  }
}
