import yargs, { Argv } from "yargs";
import { findAppDir } from "../../core/app-config";
import { allowsTransport } from "../../core/action-transports";
import { CONNECTION_TYPE, ExitCode } from "../../core/constants";
import { ErrorType, TypedError } from "../../core/errors";
import { uniqueId } from "../../core/unique-id";
import { guardUnhandledRejections } from "../../core/process-guards";
import { installSignalHandlers } from "../../core/signals";
import type { AppBoot } from "../../toolchain/app-boot";
import { registerBuildCommand } from "../../toolchain/build-command";
import { loadCliServer, noAppError, serveCliMcp, startCliServer, type CliAppOptions } from "../../toolchain/cli-app";
import type { CommandOutput } from "../../toolchain/command-output";
import { registerConsoleCommand } from "../../toolchain/console-command";
import { registerDevCommand } from "../../toolchain/dev-command";
import { runClusterIfAsked } from "../../toolchain/cluster-start";
import { registerMigrateCommand } from "../../toolchain/migrate-command";
import { isServerProcess, leaveCluster, serveInCluster } from "../../toolchain/process-cluster";
import { registerGenerateCommand, registerNewCommand } from "../../toolchain/scaffold-commands";
import { describeActions } from "./actions-command";
import { commandLineRefusal } from "./command-line-refusal";
import { declareGlobalOptions } from "./global-options";
import type { ForwardedActionCommand } from "./running-server";
import { sendToRunningServer, type CommandPlace } from "./send-to-running-server";
import { registerTasksCommand } from "./tasks-command";
import { UNKNOWN_COMMAND_HINT, unknownCommandError } from "./unknown-arguments";

const packageVersion: string = require("../../../package.json").version;

/** The framework's own commands (and aliases); any other first word is an action name. */
const FRAMEWORK_COMMANDS = ["start", "dev", "actions", "build", "console", "mcp", "tasks", "migrate", "generate", "g", "new", "help"];

export interface ProgramOptions {
  /** The application root; found from the working directory when absent. */
  appDir?: string;
  argv?: string[];
  output?: CommandOutput;
  /**
   * Register one command per action of the app, which loads the app. Default true; `runCli`
   * turns it off when the command line names a framework command or none, to stay quick.
   */
  actionCommands?: boolean;
}

const defaultOutput: CommandOutput = {
  write: (text) => process.stdout.write(text),
  exit: (code) => {
    process.exitCode = code;
  },
};

function wantsQuiet(argv: readonly string[]): boolean {
  return argv.includes("-q") || argv.includes("--quiet");
}

function firstCommandWord(argv: readonly string[]): string | undefined {
  return argv.find((word) => !word.startsWith("-"));
}

/** `--help` and `--version` are the program's to answer, with the app this process loads. */
function asksTheProgram(argv: readonly string[]): boolean {
  return argv.some((word) => word === "--help" || word === "-h" || word === "--version");
}

function without(argv: readonly string[], word: string): string[] {
  const index = argv.indexOf(word);
  return [...argv.slice(0, index), ...argv.slice(index + 1)];
}

/**
 * Sends `herald <word> …` to the app's running server, if one takes it, before this process loads
 * the app: a command the server runs needs nothing of the app's own settings here. `--help` and
 * `--version` stay this process's.
 */
async function sendActionCommand(appDir: string, argv: readonly string[], word: string, output: CommandOutput): Promise<CommandPlace> {
  if (asksTheProgram(argv)) return { verboseNote: undefined };
  const call: ForwardedActionCommand = {
    kind: "action",
    action: word,
    args: without(argv, word),
    pretty: process.stdout.isTTY === true,
    // One id for the command: the server's line about the call carries it.
    requestId: uniqueId(),
  };
  return sendToRunningServer(appDir, call, word, output, argv.includes("--verbose"));
}

/** The program of a command the running server has run and printed: it only sets the exit code. */
function answered(code: ExitCode, output: CommandOutput): Argv {
  return yargs([]).command("$0", false, {}, () => output.exit(code));
}

/**
 * The `herald` command line: the framework commands and one command per action of the app.
 * The app is loaded (not booted) only to know its actions; a command boots only what it needs,
 * with `boot`.
 */
export async function createProgram(boot: AppBoot, options: ProgramOptions = {}): Promise<Argv> {
  const argv = options.argv ?? process.argv.slice(2);
  const output = options.output ?? defaultOutput;
  const quiet = wantsQuiet(argv);
  const appDir = options.appDir ?? findAppDir();
  const app: CliAppOptions = appDir ? { appDir, boot } : { boot };
  const commands = new Set(FRAMEWORK_COMMANDS);

  const program = declareGlobalOptions(
    yargs(argv).scriptName("herald").usage("Usage: $0 <command> [options]").parserConfiguration({ "camel-case-expansion": false }),
  )
    .strict()
    .command("$0", false, {}, () => {
      program.showHelp((help) => output.write(`${help}\n`));
      output.exit(ExitCode.success);
    })
    .command(
      "start",
      "Boot the application and serve every transport",
      (command) =>
        command
          .option("workers-only", { type: "boolean", describe: "Run task workers only, no web server" })
          .option("processes", { type: "string", describe: 'Run n server processes on one port: a number, or "auto" for one per core (PROCESSES)' })
          // How herald dev runs the server: it reloads the app's code in place when told to.
          .option("dev-reloads", { type: "boolean", hidden: true }),
      async (args) => {
        if (!args["dev-reloads"] && !isServerProcess()) {
          const ranCluster = await runClusterIfAsked({ ...app, processes: args.processes });
          if (ranCluster !== undefined) return output.exit(ranCluster);
        }
        const start = () => startCliServer({ ...app, workersOnly: Boolean(args["workers-only"]) });
        if (args["dev-reloads"] && appDir) {
          const { serveWithReloads } = require("../../toolchain/dev-reloads") as typeof import("../../toolchain/dev-reloads");
          let guarded = false;
          return serveWithReloads(appDir, async () => {
            const server = await start();
            if (!guarded) guardUnhandledRejections(server.logger);
            guarded = true;
            return server;
          });
        }
        const server = await start();
        guardUnhandledRejections(server.logger);
        const requestStop = installSignalHandlers(server);
        if (isServerProcess()) serveInCluster(requestStop);
      },
    )
    .command(
      "actions",
      "List the actions with their transports, routes and queues",
      (command) => command.option("json", { type: "boolean", describe: "Print JSON" }),
      async (args) => {
        const server = await loadCliServer({ ...app, quiet });
        output.write(describeActions(server.registry.list(), Boolean(args.json)));
        output.exit(ExitCode.success);
      },
    );
  registerBuildCommand(program, app, quiet, output);
  program.command("mcp", "Serve the app over MCP on stdin/stdout, for desktop MCP clients", {}, async () => {
    await serveCliMcp(app);
    output.exit(ExitCode.success);
  });
  registerDevCommand(program, appDir, output);
  registerConsoleCommand(program, app, quiet, output);
  registerTasksCommand(program, app, quiet, output);
  registerMigrateCommand(program, app, quiet, output);
  registerGenerateCommand(program, app, output);
  registerNewCommand(program, output);

  if ((options.actionCommands ?? true) && appDir) {
    const word = firstCommandWord(argv);
    const place = word !== undefined && !commands.has(word) ? await sendActionCommand(appDir, argv, word, output) : undefined;
    if (place?.ranOnServer !== undefined) return answered(place.ranOnServer, output);
    const server = await loadCliServer({ ...app, quiet });
    // Deferred: the flags are built from zod schemas.
    const { registerActionCommand } = require("./action-command") as typeof import("./action-command");
    // An action the CLI may not call has no command, so naming it is an unknown command.
    for (const registered of server.registry.list().filter((entry) => allowsTransport(entry.action, CONNECTION_TYPE.cli))) {
      commands.add(registered.name);
      registerActionCommand(program, registered, server, output);
    }
    // Said once the word is known to name an action, which this process then runs.
    if (place?.verboseNote && word !== undefined && commands.has(word) && argv.includes("--verbose")) process.stderr.write(`${place.verboseNote}\n`);
  }

  const unknownCommandHint = appDir ? UNKNOWN_COMMAND_HINT : `${noAppError().message}; "herald --help" lists the commands`;
  return program
    .help()
    .alias("h", "help")
    .version(packageVersion)
    .epilogue("Each action of the app is a command too: `herald actions` lists them, `herald <action> --help` shows its flags.")
    .wrap(Math.min(120, program.terminalWidth()))
    .fail((message, error) => {
      // yargs goes on to run the handler unless the failure throws.
      if (error) throw error;
      const word = firstCommandWord(argv);
      if (word !== undefined && !commands.has(word)) throw unknownCommandError(word, unknownCommandHint);
      // Only a framework command gets here: an action's flags are checked by its schema in the dispatcher.
      throw new TypedError({ message: `${message}. Run with --help for usage.`, type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION });
    });
}

/**
 * Runs the command line `argv`; a failure is printed once, as its error body on stdout (the one
 * place a script reads a command's outcome, as for a failed action), with exit code 1.
 */
export async function runProgram(boot: AppBoot, argv: string[]): Promise<void> {
  try {
    const word = firstCommandWord(argv);
    const actionCommands = word !== undefined && !FRAMEWORK_COMMANDS.includes(word);
    const program = await createProgram(boot, { argv, actionCommands });
    await program.parseAsync();
  } catch (thrown) {
    const refusal = commandLineRefusal(thrown, { terminal: process.stdout.isTTY === true, production: process.env.NODE_ENV === "production" });
    process.stdout.write(refusal.stdout);
    process.exitCode = ExitCode.error;
    // A server process of a cluster that failed exits as a lone one does: its channel to the primary would hold it.
    leaveCluster();
  }
}
