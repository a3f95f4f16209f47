import { z } from "zod";

const count = z.number().int().min(0);
const jobStatus = z.enum(["waiting", "delayed", "active", "succeeded", "failed"]);

export const queueCounts = z.object({
  queue: z.string(),
  waiting: count,
  active: count,
  delayed: count,
  failed: count.describe("Kept until retried or removed"),
  completed: count.describe("Succeeded since the queue began (in process: since the server started); a job run again counts again"),
});

export const scheduleView = z.object({
  action: z.string(),
  queue: z.string(),
  every: z.number().optional().describe("Milliseconds, for a task.frequency"),
  cron: z.string().optional(),
  timezone: z.string().optional(),
  nextRun: z.string().nullable().describe("ISO time; null when the expression has no later run"),
  lastRun: z
    .object({
      queuedAt: z.string().describe("ISO time the run was queued"),
      jobId: z.string(),
      status: jobStatus.nullable().describe("Where its job stands; null once the job is forgotten"),
    })
    .nullable()
    .describe("The last run any process queued; null before the first"),
});

export const overviewOutputs = z.object({
  queues: z.array(queueCounts),
  schedules: z.array(scheduleView),
});

const errorBody = z.object({
  message: z.string(),
  type: z.string(),
  key: z.string().optional(),
  value: z.unknown().optional(),
  issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string(), code: z.string() })).optional(),
  timestamp: z.string(),
});

export const failedJob = z.object({
  id: z.string(),
  queue: z.string(),
  action: z.string(),
  params: z.record(z.string(), z.unknown()).describe("As queued; a secret() input reads [[secret]]"),
  attempts: count,
  error: errorBody.nullable().describe("The error body of its last attempt"),
});

export const failuresOutputs = z.object({
  failures: z.array(failedJob).describe("Newest failure first"),
});

export const jobReference = z.object({
  queue: z.string().min(1).describe("The queue the job is on"),
  jobId: z.string().min(1).describe("The failed job's id"),
});
