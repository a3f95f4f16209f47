import { Lifecycle, scoped } from "tsyringe";
import { RUN_MODE } from "../../core/constants";
import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";
import { HeraldServer } from "../../core/server";
import type { QueueDriver } from "./driver";
import { InProcessDriver } from "./in-process-driver";
import { readTasksSettings, TasksSettings } from "./settings";

/** Run modes whose processes run workers; the others (cli, mcp) only enqueue. */
export const WORKER_RUN_MODES: readonly RUN_MODE[] = [RUN_MODE.server, RUN_MODE.workers];

/** One server's queue driver and settings, opened at boot (or at first use) and closed at stop. */
@scoped(Lifecycle.ContainerScoped)
export class TaskRuntime {
  private opening: Promise<QueueDriver> | undefined;
  private closed = false;
  private settingsRead: TasksSettings | undefined;

  constructor(readonly server: HeraldServer) {}

  get settings(): TasksSettings {
    return (this.settingsRead ??= readTasksSettings(this.server.config));
  }

  get runsWorkers(): boolean {
    return WORKER_RUN_MODES.includes(this.server.runMode);
  }

  /** Whether this process's queue is its own memory (no Redis), which no worker of its serves and no other process sees. */
  get queueIsUnserved(): boolean {
    return !this.runsWorkers && this.settings.driver === "memory";
  }

  /** The driver, opened on first use, so that initializers that boot before "tasks" can enqueue. */
  driver(): Promise<QueueDriver> {
    if (this.closed) {
      return Promise.reject(
        new TypedError({ message: "Tasks are stopped: the server is shutting down", type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE }),
      );
    }
    // A failed opening is forgotten, so the first use after Redis is back opens it again.
    this.opening ??= this.open().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  async close(): Promise<void> {
    this.closed = true;
    const opening = this.opening;
    this.opening = undefined;
    const driver = await opening?.catch(() => undefined);
    await driver?.close();
  }

  /** Actions that have a `task`, by name. */
  taskActions(): RegisteredAction[] {
    return this.server.registry.list().filter((entry) => entry.action.task);
  }

  /** Every queue that a task action names. */
  queues(): string[] {
    return [...new Set(this.taskActions().map((entry) => entry.action.task!.queue))].sort();
  }

  private async open(): Promise<QueueDriver> {
    const settings = this.settings;
    const driver: QueueDriver =
      settings.driver === "redis"
        ? // Required with Redis only: a process on the in-process queue never loads bee-queue.
          new (require("./bee-queue-driver") as typeof import("./bee-queue-driver")).BeeQueueDriver({
            redisUrl: settings.redisUrl!,
            prefix: settings.prefix,
            resultTtlMs: settings.resultTtlMs,
            stallIntervalMs: settings.stallIntervalMs,
            onError: (error, queue, jobId) => this.server.logger.error({ err: error, queue, ...(jobId ? { jobId } : {}) }, "task queue error"),
            logger: this.server.logger,
          })
        : new InProcessDriver({ resultTtlMs: settings.resultTtlMs });
    try {
      // Bounded by the driver: its connection waits 5 s at most, and fails fast after that.
      await driver.ping();
    } catch (error) {
      await driver.close().catch(() => undefined);
      // CONNECTION_SERVICE_UNAVAILABLE: at boot the server reports it as SERVER_INITIALIZATION; at an enqueue it is a 503.
      throw error;
    }
    return driver;
  }
}
