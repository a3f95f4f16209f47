import { Lifecycle, scoped } from "tsyringe";
import { z } from "zod";
import type { MiddlewareReference } from "../../../core/action";
import { readSettings } from "../../../core/config";
import type { ActionMiddleware } from "../../../core/middleware";
import { HeraldServer } from "../../../core/server";
import { LoopbackOnly } from "./loopback-only";

export const DEFAULT_DASHBOARD_PATH = "/admin/tasks";

const settingsSchema = z.object({
  TASKS_DASHBOARD_PATH: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)+$/, "must be a path of one segment or more without a trailing slash, such as /admin/tasks")
    .default(DEFAULT_DASHBOARD_PATH),
});

export type MiddlewareClass = new (...args: any[]) => ActionMiddleware;

export type DashboardState =
  | { enabled: false; offBecause?: string }
  | {
      enabled: true;
      /** Where the page is served (TASKS_DASHBOARD_PATH). */
      path: string;
      /** What every dashboard action runs first: the app's admin check, else LoopbackOnly. */
      guard: MiddlewareClass;
    };

/**
 * Whether this app has the dashboard: only when its herald.config.ts asks (`tasksDashboard`), and
 * in production only with an admin check, since without one nothing stands between the network
 * and the retry and remove of its jobs but the caller's address.
 */
export function readDashboardState(server: Pick<HeraldServer, "app" | "config">): DashboardState {
  const asked = server.app.tasksDashboard;
  if (!asked) return { enabled: false };
  const { adminCheck } = asked;
  if (!adminCheck && server.config.production) {
    return { enabled: false, offBecause: "in production it needs an admin check: tasksDashboard: { adminCheck } in herald.config.ts" };
  }
  const path = readSettings(settingsSchema, server.config).TASKS_DASHBOARD_PATH;
  return { enabled: true, path, guard: adminCheck ?? LoopbackOnly };
}

/** The dashboard of one server, read once, for its actions and its page. */
@scoped(Lifecycle.ContainerScoped)
export class TasksDashboard {
  private read: DashboardState | undefined;

  constructor(private readonly server: HeraldServer) {}

  get state(): DashboardState {
    return (this.read ??= readDashboardState(this.server));
  }

  /** What every dashboard action runs first: the app's admin check, else LoopbackOnly. */
  get middleware(): readonly MiddlewareReference[] {
    const { state } = this;
    return state.enabled ? [state.guard] : [];
  }
}
