import type { Argv } from "yargs";
import { ExitCode } from "../core/constants";
import { ErrorType, TypedError } from "../core/errors";
import type { CommandOutput } from "./command-output";
import { findCliAppConfig, loadCliServer, noAppError, type CliAppOptions } from "./cli-app";
import { CLIENT_TYPES_FILE, clientTypesWritten, writeClientTypes } from "./client-types-command";
import { generate } from "./generate/generate";
import { generatorsFor } from "./generate/generators";
import type { PluginGenerator } from "./generate/plugin-generator";
import { createApp } from "./new-app";

/** `herald generate` and `herald new`: the commands that write code rather than run it. */

/** The generator that writes from the app's actions rather than from a template, and takes no name. */
const CLIENT_TYPES = "client-types";

function missingName(type: string): TypedError {
  return new TypedError({
    message: `herald generate ${type} needs a name, e.g. herald generate ${type} ${type === "action" || type === "task" ? "todo:create" : "todo"}`,
    type: ErrorType.CONNECTION_ACTION_PARAM_REQUIRED,
    key: "name",
  });
}

function typesEpilogue(generators: readonly PluginGenerator[]): string {
  const width = Math.max(CLIENT_TYPES.length, ...generators.map((generator) => generator.type.length));
  const lines = generators.map((generator) => `  ${generator.type.padEnd(width)}  ${generator.description}`);
  lines.push(`  ${CLIENT_TYPES.padEnd(width)}  The type module of the app's actions for herald/client (no name; --out to choose the file)`);
  return `Types:\n${lines.join("\n")}`;
}

export function registerGenerateCommand(program: Argv, app: CliAppOptions, output: CommandOutput): void {
  program.command(
    ["generate <type> [name]", "g"],
    "Write an action, task, initializer, middleware, channel, service, test or resource, with its test; or the client's types",
    (command) => {
      // Only when `generate` is the command: reading the config loads the app's TypeScript.
      const generators = generatorsFor(findCliAppConfig(app.appDir)?.plugins ?? []);
      command
        .positional("type", { type: "string", choices: [...generators.map((generator) => generator.type), CLIENT_TYPES], describe: "What to generate" })
        .positional("name", { type: "string", describe: "<group>:<verb> for an action or a task; one word for a resource; a word (nested with /) otherwise; none for client-types" })
        .option("out", { type: "string", describe: `client-types: the module to write (default: ${CLIENT_TYPES_FILE} in the app folder)` })
        .option("dry-run", { type: "boolean", describe: "Print what would be written; write nothing" })
        .option("force", { type: "boolean", describe: "Overwrite existing files (never touched otherwise)" })
        .option("test", { type: "boolean", default: true, describe: "Also write a Jest test (--no-test: do not)" })
        .epilogue(typesEpilogue(generators));
      const declared = new Set(["dry-run", "force", "test", "type", "name", "out", "q", "quiet", "help", "version"]);
      for (const generator of generators) {
        for (const [key, option] of Object.entries(generator.options ?? {})) {
          if (!declared.has(key)) command.option(key, { ...option, ...(option.choices ? { choices: [...option.choices] } : {}) });
          declared.add(key);
        }
      }
      return command;
    },
    async (args) => {
      const config = findCliAppConfig(app.appDir);
      if (!config) throw noAppError();
      if (args.type === CLIENT_TYPES) {
        const server = await loadCliServer({ boot: app.boot, appDir: config.root, quiet: true });
        const report = await writeClientTypes(server, args.out === undefined ? undefined : String(args.out));
        output.write(clientTypesWritten(report));
        output.exit(ExitCode.success);
        return;
      }
      if (args.name === undefined) throw missingName(String(args.type));
      output.write(
        await generate(config, {
          type: String(args.type),
          name: String(args.name),
          dryRun: Boolean(args["dry-run"]),
          force: Boolean(args.force),
          test: args.test !== false,
          options: args,
        }),
      );
      output.exit(ExitCode.success);
    },
  );
}

export function registerNewCommand(program: Argv, output: CommandOutput): void {
  program.command(
    "new <dir>",
    "Create an app that runs with `npm install && npm start` and passes `npm test`",
    (command) =>
      command
        .positional("dir", { type: "string", describe: "Folder to create it in" })
        .option("name", { type: "string", describe: "npm package name (default: the folder's name)" })
        .option("herald", { type: "string", describe: "How it depends on herald, e.g. file:../herald-0.1.0.tgz (default: ^<this version> when herald is an installed package, file:<checkout> when it runs from a clone)" })
        .option("database", {
          choices: ["postgres", "none"] as const,
          default: "postgres" as const,
          describe: "postgres: the built-in database, embedded PGlite or PostgreSQL with DATABASE_URL; none: no database",
        })
        .option("dry-run", { type: "boolean", describe: "Print what would be written; write nothing" })
        .option("force", { type: "boolean", describe: "Overwrite the app's files where they exist" })
        .option("git", {
          type: "boolean",
          default: true,
          describe: "Run git init in the app's folder, unless it is inside a git repository already or git is not on PATH; --no-git skips it",
        }),
    async (args) => {
      output.write(
        createApp({
          dir: String(args.dir),
          ...(args.name !== undefined ? { name: args.name } : {}),
          ...(args.herald !== undefined ? { heraldSpec: args.herald } : {}),
          database: args.database,
          force: Boolean(args.force),
          dryRun: Boolean(args["dry-run"]),
          git: args.git !== false,
        }),
      );
      output.exit(ExitCode.success);
    },
  );
}
