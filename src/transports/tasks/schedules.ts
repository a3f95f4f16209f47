import type { Cron } from "croner";
import type { ActionDefinition } from "../../core/action";
import { readCronExpression } from "../../core/cron-expression";
import { ErrorType, TypedError } from "../../core/errors";
import type { JobStatus } from "./driver";

/** How a recurring task recurs: every `frequency` ms from the Unix epoch, or at the ticks of a cron expression. */
export type Recurrence = { frequency: number } | { cron: string; timezone?: string; schedule: Cron };

/** A task action that runs by itself, for the whole cluster. */
export interface ScheduledTask {
  action: string;
  queue: string;
  recurrence: Recurrence;
}

function definitionError(action: string, message: string, cause?: unknown): TypedError {
  return new TypedError({ message: `Action "${action}" ${message}`, type: ErrorType.CONNECTION_TASK_DEFINITION, ...(cause ? { cause } : {}) });
}

/**
 * The recurrence an action's `task` asks for, checked: undefined for a task queued on demand
 * only. `frequency` and `cron` exclude each other; a cron expression (five fields, or six with
 * seconds first) and its `timezone` (IANA, the process's own when absent) are read by croner,
 * whose refusal fails the boot naming the action.
 */
export function recurrenceOf(name: string, action: Pick<ActionDefinition, "task">): Recurrence | undefined {
  const task = action.task;
  if (!task) return undefined;
  const { frequency, cron, timezone } = task;
  if (frequency !== undefined && cron !== undefined) throw definitionError(name, "has both task.frequency and task.cron: give one");
  if (timezone !== undefined && cron === undefined) throw definitionError(name, "has task.timezone without task.cron: a frequency counts from the Unix epoch, in no time zone");
  if (frequency !== undefined) {
    if (!Number.isFinite(frequency) || frequency <= 0) throw definitionError(name, `has task.frequency ${frequency}; it must be a number of milliseconds above 0`);
    return { frequency };
  }
  if (cron === undefined) return undefined;
  let schedule: Cron;
  try {
    schedule = readCronExpression(cron, timezone);
  } catch (cause) {
    throw definitionError(name, `has task.cron ${JSON.stringify(cron)}${timezone !== undefined ? ` in ${timezone}` : ""}, which cannot be read: ${(cause as Error).message}`, cause);
  }
  return { cron, ...(timezone !== undefined ? { timezone } : {}), schedule };
}

/** The first run strictly after `afterMs` (Unix ms), or undefined when the expression has no later one. */
export function nextRunAfter(recurrence: Recurrence, afterMs: number): number | undefined {
  if ("frequency" in recurrence) return (Math.floor(afterMs / recurrence.frequency) + 1) * recurrence.frequency;
  return recurrence.schedule.nextRun(new Date(afterMs))?.getTime();
}

/** One task that runs by itself: `every` (ms) or `cron` (and `timezone`), and its next run (ISO time; null when there is none). */
export type ScheduleDescription = { action: string; queue: string; every?: number; cron?: string; timezone?: string; nextRun: string | null };

/** A schedule's last run: when it was queued (ISO time), its job, and where that job stands (null once the job is forgotten). */
export type LastRun = { queuedAt: string; jobId: string; status: JobStatus | null };

/** What `herald tasks schedules` prints of one task: how it recurs, and when it runs next. */
export function describeSchedule(task: ScheduledTask, nowMs: number): ScheduleDescription {
  const { recurrence } = task;
  const how = "frequency" in recurrence ? { every: recurrence.frequency } : { cron: recurrence.cron, ...(recurrence.timezone !== undefined ? { timezone: recurrence.timezone } : {}) };
  const next = nextRunAfter(recurrence, nowMs);
  return { action: task.action, queue: task.queue, ...how, nextRun: next === undefined ? null : new Date(next).toISOString() };
}
