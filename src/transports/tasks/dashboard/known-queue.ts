import { ErrorType, TypedError } from "../../../core/errors";
import type { JobInfo } from "../driver";
import type { TaskService } from "../task-service";

/**
 * `queue`, when a task action names it: a caller's name for another would otherwise open a queue
 * of that name on the backend.
 */
export function knownQueue(tasks: TaskService, queue: string): string {
  if (tasks.queues().includes(queue)) return queue;
  throw new TypedError({ message: `No task action names the queue "${queue}"`, type: ErrorType.CONNECTION_NOT_FOUND, key: "queue", value: queue });
}

/** The failed job of that id, or a 404 naming it: retry and remove are for failed jobs only. */
export async function failedJob(tasks: TaskService, queue: string, jobId: string): Promise<JobInfo> {
  const job = await tasks.getJob(knownQueue(tasks, queue), jobId);
  if (job?.status === "failed") return job;
  throw new TypedError({ message: `Queue "${queue}" has no failed job "${jobId}"`, type: ErrorType.CONNECTION_NOT_FOUND, key: "jobId", value: jobId });
}
