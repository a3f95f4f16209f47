import { injectable } from "tsyringe";
import { z } from "zod";
import type { ActionDefinition, WebConfig } from "../../../core/action";
import { HTTP_METHOD } from "../../../core/constants";
import { ErrorType, TypedError } from "../../../core/errors";
import { jobReference } from "./dashboard-outputs";
import { failedJob } from "./known-queue";
import { DashboardAction } from "./dashboard-action";

const retryOutputs = z.object({ queue: z.string(), jobId: z.string(), retried: z.literal(true) });
const removeOutputs = z.object({ queue: z.string(), jobId: z.string(), removed: z.literal(true) });

/** `tasks:retry`: one more attempt for a failed job, on any worker. */
@injectable()
export class TasksRetryAction extends DashboardAction implements ActionDefinition<typeof jobReference> {
  readonly name = "tasks:retry";
  readonly description = "Queues a failed job once more";
  readonly inputs = jobReference;
  readonly web: WebConfig = { route: "/tasks/retry", method: HTTP_METHOD.POST };
  readonly outputs = retryOutputs;
  readonly errors = { CONNECTION_NOT_FOUND: true };
  async run({ queue, jobId }: z.output<typeof jobReference>): Promise<z.output<typeof retryOutputs>> {
    await failedJob(this.tasks, queue, jobId);
    // Atomic: of two retries of one job (two pages open), one queues it and the other finds it gone.
    if (!(await this.tasks.retry(queue, jobId))) {
      throw new TypedError({ message: `Queue "${queue}" has no failed job "${jobId}"`, type: ErrorType.CONNECTION_NOT_FOUND, key: "jobId", value: jobId });
    }
    return { queue, jobId, retried: true };
  }
}

/** `tasks:remove`: forgets a failed job, its error and its id. */
@injectable()
export class TasksRemoveAction extends DashboardAction implements ActionDefinition<typeof jobReference> {
  readonly name = "tasks:remove";
  readonly description = "Forgets a failed job and its error";
  readonly inputs = jobReference;
  readonly web: WebConfig = { route: "/tasks/remove", method: HTTP_METHOD.POST };
  readonly outputs = removeOutputs;
  readonly errors = { CONNECTION_NOT_FOUND: true };
  async run({ queue, jobId }: z.output<typeof jobReference>): Promise<z.output<typeof removeOutputs>> {
    await failedJob(this.tasks, queue, jobId);
    await this.tasks.remove(queue, jobId);
    return { queue, jobId, removed: true };
  }
}
