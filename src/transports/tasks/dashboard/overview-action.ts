import { injectable } from "tsyringe";
import type { z } from "zod";
import type { ActionDefinition, WebConfig } from "../../../core/action";
import { HTTP_METHOD } from "../../../core/constants";
import { overviewOutputs } from "./dashboard-outputs";
import { DashboardAction } from "./dashboard-action";

/** `tasks:overview`: what the dashboard's page opens with, and `herald tasks:overview` prints. */
@injectable()
export class TasksOverviewAction extends DashboardAction implements ActionDefinition<undefined> {
  readonly name = "tasks:overview";
  readonly description = "Per queue, its waiting, active, delayed, failed and completed jobs; each schedule with its last and next run";
  readonly web: WebConfig = { route: "/tasks/overview", method: HTTP_METHOD.GET };
  readonly outputs = overviewOutputs;
  async run(): Promise<z.output<typeof overviewOutputs>> {
    const [stats, schedules] = await Promise.all([this.tasks.stats(), this.tasks.schedulesWithLastRun()]);
    return {
      queues: Object.entries(stats).map(([queue, counts]) => ({ queue, ...counts })),
      schedules,
    };
  }
}
