import { injectable } from "tsyringe";
import type { MiddlewareReference } from "../../../core/action";
import { TaskService } from "../task-service";
import { TasksDashboard } from "./dashboard-settings";

/** What every dashboard action shares: the task service it reads and acts through, and the dashboard's guard as its middleware. */
@injectable()
export class DashboardAction {
  readonly middleware: readonly MiddlewareReference[];

  constructor(
    protected readonly tasks: TaskService,
    dashboard: TasksDashboard,
  ) {
    this.middleware = dashboard.middleware;
  }
}
