import type { Argv } from "yargs";
import { findAppDir } from "../../core/app-config";
import { ErrorType, TypedError } from "../../core/errors";
import { TASK_OPERATIONS, type TaskOperations } from "../../core/ports/task-operations";
import type { CommandOutput } from "../../toolchain/command-output";
import { runBootedCommand, type CliAppOptions } from "../../toolchain/cli-app";
import type { TasksOperation } from "./running-server";
import { sendToRunningServer } from "./send-to-running-server";

function parseParams(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TypedError({ message: "--params must be a JSON object", type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING, key: "params" });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new TypedError({ message: "--params must be a JSON object", type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING, key: "params" });
  }
  return parsed as Record<string, unknown>;
}

function unknownJob(queue: string, jobId: string): TypedError {
  return new TypedError({ message: `Queue "${queue}" has no job "${jobId}"`, type: ErrorType.CONNECTION_NOT_FOUND, key: "jobId", value: jobId });
}

/** Runs one `herald tasks` operation on a queue's operations: this process's, or the running server's. */
export async function runTasksOperation(tasks: TaskOperations, operation: TasksOperation): Promise<unknown> {
  switch (operation.name) {
    case "stats":
      return tasks.stats(operation.queue);
    case "schedules":
      return tasks.schedules();
    case "failed":
      return tasks.failed(operation.queue, { limit: operation.limit });
    case "retry":
      return { retried: await tasks.retry(operation.queue, operation.jobId) };
    case "job": {
      const job = await tasks.getJob(operation.queue, operation.jobId);
      if (!job) throw unknownJob(operation.queue, operation.jobId);
      return job;
    }
    case "cancel":
      return { cancelled: await tasks.cancel(operation.queue, operation.jobId, "Cancelled from the command line") };
    case "remove":
      await tasks.remove(operation.queue, operation.jobId);
      return { removed: true };
    case "enqueue":
      return { jobId: await tasks.enqueue(operation.action, parseParams(operation.params), operation.options) };
  }
}

/**
 * `herald tasks …`: runs one queue operation and prints `{response}` or `{error}`. Beside the app's
 * running server (see CliSocketInitializer) the server runs it, on its own queue, which without
 * Redis is in its memory; otherwise this process boots the app in cli mode and runs it.
 */
export function registerTasksCommand(program: Argv, app: CliAppOptions, quiet: boolean, output: CommandOutput): void {
  const run = async (operation: TasksOperation, verbose: unknown) => {
    const appDir = app.appDir ?? findAppDir();
    if (appDir) {
      const label = `tasks ${operation.name}`;
      const place = await sendToRunningServer(appDir, { kind: "tasks", operation }, label, output, verbose === true);
      if (place.ranOnServer !== undefined) return output.exit(place.ranOnServer);
      if (verbose === true && place.verboseNote) process.stderr.write(`${place.verboseNote}\n`);
    }
    return runBootedCommand({ ...app, quiet }, output, (server) => runTasksOperation(server.container.resolve(TASK_OPERATIONS), operation));
  };

  program.command("tasks", "Inspect and operate the task queues", (tasks) =>
    tasks
      .command("stats [queue]", "Waiting, active, delayed and failed counts per queue", {}, (args) =>
        run({ name: "stats", ...(args.queue !== undefined ? { queue: String(args.queue) } : {}) }, args.verbose),
      )
      .command("schedules", "The tasks that run by themselves (frequency or cron), with their next run", {}, (args) => run({ name: "schedules" }, args.verbose))
      .command(
        "failed <queue>",
        "List failed jobs with their errors",
        (command) => command.option("limit", { type: "number", default: 20, describe: "At most this many" }),
        (args) => run({ name: "failed", queue: String(args.queue), limit: Number(args.limit) }, args.verbose),
      )
      .command("retry <queue> <jobId>", "Queue a failed job again", {}, (args) =>
        run({ name: "retry", queue: String(args.queue), jobId: String(args.jobId) }, args.verbose),
      )
      .command("job <queue> <jobId>", "A job as it stands: status, attempts, progress, result or error", {}, (args) =>
        run({ name: "job", queue: String(args.queue), jobId: String(args.jobId) }, args.verbose),
      )
      .command("cancel <queue> <jobId>", "Stop a job: remove it while it waits, abort it while it runs", {}, (args) =>
        run({ name: "cancel", queue: String(args.queue), jobId: String(args.jobId) }, args.verbose),
      )
      .command("remove <queue> <jobId>", "Forget a job, a failed one included", {}, (args) =>
        run({ name: "remove", queue: String(args.queue), jobId: String(args.jobId) }, args.verbose),
      )
      .command(
        "enqueue <action>",
        "Queue one run of a task action",
        (command) =>
          command
            .option("params", { type: "string", describe: "The params, as a JSON object" })
            .option("delay", { type: "number", describe: "Wait this many ms before running" })
            .option("job-id", { type: "string", describe: "A job id, to queue it only once" }),
        (args) =>
          run(
            {
              name: "enqueue",
              action: String(args.action),
              ...(args.params !== undefined ? { params: String(args.params) } : {}),
              options: {
                ...(args.delay !== undefined ? { delayMs: Number(args.delay) } : {}),
                ...(args["job-id"] !== undefined ? { jobId: String(args["job-id"]) } : {}),
              },
            },
            args.verbose,
          ),
      )
      .demandCommand(1, "Name a tasks command: stats, schedules, failed, retry, job, cancel, remove or enqueue"),
  );
}
