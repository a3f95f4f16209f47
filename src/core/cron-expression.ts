import type { Cron } from "croner";

/**
 * A cron expression (five fields, or six with seconds first) read by croner in `timezone` (IANA;
 * the process's own when absent), paused: for computing its runs. Throws croner's error when the
 * expression or the time zone cannot be read. croner is required here, on first use: only an app
 * with a cron task loads it.
 */
export function readCronExpression(cron: string, timezone: string | undefined): Cron {
  const { Cron: CronClass } = require("croner") as typeof import("croner");
  const schedule = new CronClass(cron, { paused: true, ...(timezone !== undefined ? { timezone } : {}) });
  // A bad time zone is only found when a time is converted into it.
  schedule.nextRun();
  return schedule;
}
