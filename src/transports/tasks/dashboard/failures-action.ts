import { injectable } from "tsyringe";
import { z } from "zod";
import type { ActionDefinition, WebConfig } from "../../../core/action";
import { HTTP_METHOD } from "../../../core/constants";
import type { JobInfo } from "../driver";
import { failuresOutputs } from "./dashboard-outputs";
import { knownQueue } from "./known-queue";
import { DashboardAction } from "./dashboard-action";

/** Failed jobs read per queue to find the newest: a set holds them, in no order. */
export const FAILED_JOBS_READ = 1000;

const failuresInputs = z.object({
  queue: z.string().min(1).optional().describe("One queue; every queue a task action names when absent"),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("How many failures, newest first"),
});

function failedAt(job: JobInfo): number {
  const at = job.error ? Date.parse(job.error.timestamp) : NaN;
  return Number.isNaN(at) ? 0 : at;
}

/** `tasks:failures`: the newest failed jobs, with the error body of their last attempt. */
@injectable()
export class TasksFailuresAction extends DashboardAction implements ActionDefinition<typeof failuresInputs> {
  readonly name = "tasks:failures";
  readonly description = "The newest failed jobs of one queue or of every queue, each with the error of its last attempt";
  readonly inputs = failuresInputs;
  readonly web: WebConfig = { route: "/tasks/failures", method: HTTP_METHOD.GET };
  readonly outputs = failuresOutputs;
  readonly errors = { CONNECTION_NOT_FOUND: true };
  async run(params: z.output<typeof failuresInputs>): Promise<z.output<typeof failuresOutputs>> {
    const queues = params.queue === undefined ? this.tasks.queues() : [knownQueue(this.tasks, params.queue)];
    const failed = (await Promise.all(queues.map((queue) => this.tasks.failed(queue, { limit: FAILED_JOBS_READ })))).flat();
    const newest = failed.sort((a, b) => failedAt(b) - failedAt(a)).slice(0, params.limit);
    return {
      failures: newest.map((job) => ({
        id: job.id,
        queue: job.queue,
        action: job.action,
        params: job.params,
        attempts: job.attempts,
        error: job.error ?? null,
      })),
    };
  }
}
