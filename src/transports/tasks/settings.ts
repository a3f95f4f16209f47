import { z } from "zod";
import { HeraldConfig, readSettings } from "../../core/config";

const count = (min: number) => z.coerce.number().int().min(min);

const tasksSettingsSchema = z.object({
  /** `redis` (bee-queue) or `memory` (in-process); Redis when REDIS_URL is set, memory otherwise. */
  TASKS_DRIVER: z.enum(["redis", "memory"]).optional(),
  /** Prefix of every Redis key of the queues; default `<NAME>:tasks`. */
  TASKS_PREFIX: z.string().min(1).optional(),
  /** Jobs one process runs at once on each queue (see TASKS_CONCURRENCY_<QUEUE>). */
  TASKS_CONCURRENCY: count(1).default(5),
  /** Comma-separated queues this process works; every queue a task action names when absent. */
  TASKS_QUEUES: z.string().optional(),
  /** Retries of a failed job after its first attempt, unless `enqueue` says otherwise. */
  TASKS_RETRIES: count(0).default(2),
  /** First wait before a retry; doubled for each next one (exponential backoff). */
  TASKS_BACKOFF_MS: count(0).default(1000),
  /** A job whose worker stops checking in for this long is handed to another worker. */
  TASKS_STALL_INTERVAL: count(100).default(5000),
  /** How long a stopping worker waits for the jobs in hand. */
  TASKS_STOP_TIMEOUT: count(0).default(10_000),
  /** How long results of succeeded jobs and fan-out progress are kept. */
  TASKS_RESULT_TTL: count(1000).default(86_400_000),
  /** Jobs a fan-out queues per round trip. */
  TASKS_FANOUT_BATCH: count(1).default(100),
});

export interface TasksSettings {
  driver: "redis" | "memory";
  redisUrl?: string;
  prefix: string;
  concurrency: number;
  queues?: string[];
  retries: number;
  backoffMs: number;
  stallIntervalMs: number;
  stopTimeoutMs: number;
  resultTtlMs: number;
  fanOutBatch: number;
}

export function readTasksSettings(config: HeraldConfig): TasksSettings {
  const read = readSettings(tasksSettingsSchema, config);
  const driver = read.TASKS_DRIVER ?? (config.redisUrl ? "redis" : "memory");
  if (driver === "redis" && !config.redisUrl) {
    readSettings(z.object({ REDIS_URL: z.string({ error: "TASKS_DRIVER=redis needs REDIS_URL" }) }), config);
  }
  const queues = read.TASKS_QUEUES?.split(",").map((queue) => queue.trim()).filter(Boolean);
  return {
    driver,
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    prefix: read.TASKS_PREFIX ?? `${config.name}:tasks`,
    concurrency: read.TASKS_CONCURRENCY,
    ...(queues?.length ? { queues } : {}),
    retries: read.TASKS_RETRIES,
    backoffMs: read.TASKS_BACKOFF_MS,
    stallIntervalMs: read.TASKS_STALL_INTERVAL,
    stopTimeoutMs: read.TASKS_STOP_TIMEOUT,
    resultTtlMs: read.TASKS_RESULT_TTL,
    fanOutBatch: read.TASKS_FANOUT_BATCH,
  };
}

/** `TASKS_CONCURRENCY_<QUEUE>` (queue name upper-cased, other characters as `_`) overrides the default. */
export function queueConcurrency(queue: string, settings: TasksSettings, config: HeraldConfig): number {
  const variable = `TASKS_CONCURRENCY_${queue.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
  const read = readSettings(z.object({ [variable]: count(1).optional() }), config);
  return (read[variable] as number | undefined) ?? settings.concurrency;
}
