import type { Argv } from "yargs";
import { ExitCode } from "../../core/constants";
import type { CommandOutput } from "./action-command";
import { findCliAppConfig, noAppError } from "./cli-app";
import { generate } from "./generate/generate";
import { generatorsFor } from "./generate/generators";
import type { PluginGenerator } from "./generate/plugin-generator";
import { createApp } from "./new-app";

/** `herald generate` and `herald new`: the commands that write code rather than run it. */

function typesEpilogue(generators: readonly PluginGenerator[]): string {
  const width = Math.max(...generators.map((generator) => generator.type.length));
  return `Types:\n${generators.map((generator) => `  ${generator.type.padEnd(width)}  ${generator.description}`).join("\n")}`;
}

export function registerGenerateCommand(program: Argv, appDir: string | undefined, output: CommandOutput): void {
  program.command(
    ["generate <type> <name>", "g"],
    "Write an action, task, initializer, middleware, channel, service or test, with its test",
    (command) => {
      // Only when `generate` is the command: reading the config loads the app's TypeScript.
      const generators = generatorsFor(findCliAppConfig(appDir)?.plugins ?? []);
      command
        .positional("type", { type: "string", choices: generators.map((generator) => generator.type), describe: "What to generate" })
        .positional("name", { type: "string", describe: "<group>:<verb> for an action or a task; a word (nested with /) otherwise" })
        .option("dry-run", { type: "boolean", describe: "Print what would be written; write nothing" })
        .option("force", { type: "boolean", describe: "Overwrite existing files (never touched otherwise)" })
        .option("test", { type: "boolean", default: true, describe: "Also write a Jest test (--no-test: do not)" })
        .epilogue(typesEpilogue(generators));
      const declared = new Set(["dry-run", "force", "test", "type", "name", "q", "quiet", "help", "version"]);
      for (const generator of generators) {
        for (const [key, option] of Object.entries(generator.options ?? {})) {
          if (!declared.has(key)) command.option(key, { ...option, ...(option.choices ? { choices: [...option.choices] } : {}) });
          declared.add(key);
        }
      }
      return command;
    },
    async (args) => {
      const app = findCliAppConfig(appDir);
      if (!app) throw noAppError();
      output.write(
        await generate(app, {
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
        .option("herald", { type: "string", describe: "How it depends on herald, e.g. file:../herald (default: ^<this version>)" })
        .option("dry-run", { type: "boolean", describe: "Print what would be written; write nothing" })
        .option("force", { type: "boolean", describe: "Overwrite the app's files where they exist" }),
    async (args) => {
      output.write(
        createApp({
          dir: String(args.dir),
          ...(args.name !== undefined ? { name: args.name } : {}),
          ...(args.herald !== undefined ? { heraldSpec: args.herald } : {}),
          force: Boolean(args.force),
          dryRun: Boolean(args["dry-run"]),
        }),
      );
      output.exit(ExitCode.success);
    },
  );
}
