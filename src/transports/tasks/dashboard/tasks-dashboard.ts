import type { ActionDefinition } from "../../../core/action";
import { RUN_MODE } from "../../../core/constants";
import type { HeraldServer } from "../../../core/server";
import { readApiPrefix } from "../../../openapi/api-prefix";
import { dashboardPageMount } from "./dashboard-page";
import { TasksDashboard } from "./dashboard-settings";
import { TasksRemoveAction, TasksRetryAction } from "./failed-job-actions";
import { TasksFailuresAction } from "./failures-action";
import { TasksOverviewAction } from "./overview-action";

/** The dashboard's actions, built-in, registered only for an app that turned the dashboard on. */
export const TASKS_DASHBOARD_ACTIONS: readonly (new (...args: any[]) => ActionDefinition)[] = [
  TasksOverviewAction,
  TasksFailuresAction,
  TasksRetryAction,
  TasksRemoveAction,
];

/** Adds the dashboard's actions to the registry when the app has the dashboard here (see readDashboardState). */
export function registerTasksDashboardActions(server: HeraldServer): void {
  if (!server.container.resolve(TasksDashboard).state.enabled) return;
  for (const actionClass of TASKS_DASHBOARD_ACTIONS) {
    server.registry.add(server.container.resolve(actionClass), "herald (built-in)", { builtin: true });
  }
}

/**
 * Asks the web transport to serve the page, in the run mode that has one; says why not when the
 * app asked for a dashboard it cannot have here.
 */
export function mountTasksDashboard(server: HeraldServer): void {
  if (server.runMode !== RUN_MODE.server) return;
  const { state } = server.container.resolve(TasksDashboard);
  if (!state.enabled) {
    if (state.offBecause) server.logger.warn({ reason: state.offBecause }, `the tasks dashboard is off: ${state.offBecause}`);
    return;
  }
  server.httpMounts.push(
    dashboardPageMount({
      path: state.path,
      apiPrefix: readApiPrefix(server.config),
      appName: server.config.name,
      // The instance the actions run, so the page asks for the credential they check.
      guard: server.registry.middlewareOf(state.guard),
      codec: server.codec,
    }),
  );
}
