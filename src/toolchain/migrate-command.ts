import type { Argv } from "yargs";
import { ErrorType, TypedError } from "../core/errors";
import { MIGRATOR, type Migrator } from "../core/ports/migrator";
import type { CommandOutput } from "./command-output";
import { runBootedCommand, type CliAppOptions } from "./cli-app";

/** `herald migrate …`: boots the app in cli mode and drives the Migrator its database initializer registered. */
export function registerMigrateCommand(program: Argv, app: CliAppOptions, quiet: boolean, output: CommandOutput): void {
  const run = (operation: (migrator: Migrator) => Promise<unknown>) =>
    runBootedCommand({ ...app, quiet }, output, (server) => {
      if (!server.container.isRegistered(MIGRATOR, true)) {
        throw new TypedError({
          message: "This app registers no Migrator: its database initializer provides one (see docs/database.md)",
          type: ErrorType.CONFIG_ERROR,
        });
      }
      return operation(server.container.resolve(MIGRATOR));
    });

  program.command("migrate", "Run, revert, list or generate database migrations", (migrate) =>
    migrate
      .command("run", "Apply every pending migration", {}, () => run(async (migrator) => ({ applied: await migrator.run() })))
      .command("revert", "Undo the most recent migration", {}, () =>
        run(async (migrator) => ({ reverted: (await migrator.revert()) ?? null })),
      )
      .command("status", "List applied and pending migrations", {}, () => run((migrator) => migrator.status()))
      .command(
        "generate <name>",
        "Write a migration from the difference between the entities and the database",
        (command) => command.option("dir", { type: "string", describe: "Write it here instead of the app's migrations folder" }),
        (args) =>
          run(async (migrator) => ({
            files: await migrator.generate(String(args.name), args.dir ? { directory: String(args.dir) } : {}),
          })),
      )
      .demandCommand(1, "Name a migrate command: run, revert, status or generate"),
  );
}
