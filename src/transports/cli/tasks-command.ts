import type { Argv } from "yargs";
import { ErrorType, TypedError } from "../../core/errors";
import { TASK_OPERATIONS, type TaskOperations } from "../../core/ports/task-operations";
import type { CommandOutput } from "../../toolchain/command-output";
import { runBootedCommand, type CliAppOptions } from "../../toolchain/cli-app";

type Operation = (tasks: TaskOperations) => Promise<unknown>;

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

/** `herald tasks …`: boots the app in cli mode, runs one queue operation, prints `{response}` or `{error}`. */
export function registerTasksCommand(program: Argv, app: CliAppOptions, quiet: boolean, output: CommandOutput): void {
  const run = (operation: Operation) =>
    runBootedCommand({ ...app, quiet }, output, (server) => operation(server.container.resolve(TASK_OPERATIONS)));

  program.command("tasks", "Inspect and operate the task queues", (tasks) =>
    tasks
      .command("stats [queue]", "Waiting, active, delayed, succeeded and failed counts per queue", {}, (args) =>
        run((ops) => ops.stats(args.queue as string | undefined)),
      )
      .command(
        "failed <queue>",
        "List failed jobs with their errors",
        (command) => command.option("limit", { type: "number", default: 20, describe: "At most this many" }),
        (args) => run((ops) => ops.failed(String(args.queue), { limit: Number(args.limit) })),
      )
      .command("retry <queue> <jobId>", "Queue a failed job again", {}, (args) =>
        run(async (ops) => ({ retried: await ops.retry(String(args.queue), String(args.jobId)) })),
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
          run(async (ops) => ({
            jobId: await ops.enqueue(String(args.action), parseParams(args.params as string | undefined), {
              ...(args.delay !== undefined ? { delayMs: Number(args.delay) } : {}),
              ...(args["job-id"] !== undefined ? { jobId: String(args["job-id"]) } : {}),
            }),
          })),
      )
      .demandCommand(1, "Name a tasks command: stats, failed, retry or enqueue"),
  );
}
