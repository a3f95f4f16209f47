import { servingTransports } from "../../core/action-transports";
import type { RegisteredAction } from "../../core/registry";

interface ActionSummary {
  name: string;
  description?: string;
  transports: string[];
  route?: string;
  queue?: string;
  frequency?: number;
  cron?: string;
  timezone?: string;
}

function summarize(registered: RegisteredAction): ActionSummary {
  const { action } = registered;
  const transports: string[] = servingTransports(action);
  return {
    name: registered.name,
    ...(action.description ? { description: action.description } : {}),
    transports,
    ...(action.web ? { route: `${String(action.web.method).toUpperCase()} ${String(action.web.route)}` } : {}),
    ...(action.task ? { queue: action.task.queue } : {}),
    ...(action.task?.frequency ? { frequency: action.task.frequency } : {}),
    ...(action.task?.cron ? { cron: action.task.cron } : {}),
    ...(action.task?.timezone ? { timezone: action.task.timezone } : {}),
  };
}

/** The QUEUE column: the queue, and how the task recurs when it runs by itself. */
function queueCell(summary: ActionSummary): string {
  if (!summary.queue) return "";
  if (summary.frequency) return `${summary.queue} every ${summary.frequency} ms`;
  if (summary.cron) return `${summary.queue} cron ${summary.cron}${summary.timezone ? ` (${summary.timezone})` : ""}`;
  return summary.queue;
}

/** The `herald actions` listing: a table for people, or JSON for scripts. */
export function describeActions(actions: readonly RegisteredAction[], json: boolean): string {
  const summaries = actions.map(summarize).sort((a, b) => a.name.localeCompare(b.name));
  if (json) return `${JSON.stringify(summaries, null, 2)}\n`;
  const rows = summaries.map((summary) => [
    summary.name,
    summary.transports.join(","),
    summary.route ?? "",
    queueCell(summary),
  ]);
  const header = ["ACTION", "TRANSPORTS", "ROUTE", "QUEUE"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd();
  return `${[header, ...rows].map(format).join("\n")}\n`;
}
