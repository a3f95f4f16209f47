import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { REPLServer } from "node:repl";
import type { Argv } from "yargs";
import { CONNECTION_TYPE, ExitCode } from "../core/constants";
import { Connection } from "../core/connection";
import type { HeraldServer } from "../core/server";
import type { CommandOutput } from "./command-output";
import { loadCliServer, type CliAppOptions } from "./cli-app";

/** What the console's `run` gives: the action's response, or its TypedError thrown. */
async function runAction(server: HeraldServer, name: string, params: Record<string, unknown> = {}): Promise<unknown> {
  const result = await server.runAction(name, params, new Connection({ type: CONNECTION_TYPE.cli }));
  if (result.error) throw result.error;
  return result.response;
}

/** The names the console starts with, beside Node's own. */
export function consoleContext(server: HeraldServer): Record<string, unknown> {
  return {
    herald: server,
    container: server.container,
    config: server.config,
    resolve: (token: Parameters<HeraldServer["container"]["resolve"]>[0]) => server.container.resolve(token),
    run: (name: string, params?: Record<string, unknown>) => runAction(server, name, params),
    actions: () => server.registry.list().map((entry) => entry.name),
  };
}

/**
 * node:repl, loaded when the console opens: it loads node:domain, which wraps the construction of
 * every EventEmitter (each request and response of a server) in a process that has it.
 */
function replModule(): typeof import("node:repl") {
  return require("node:repl") as typeof import("node:repl");
}

function openRepl(server: HeraldServer, interactive: boolean): REPLServer {
  const repl = replModule().start({ prompt: `${server.config.name}> `, terminal: interactive, useGlobal: false, ignoreUndefined: true });
  Object.assign(repl.context, consoleContext(server));
  if (interactive) {
    const historyDir = join(server.app.root, ".herald");
    mkdirSync(historyDir, { recursive: true });
    repl.setupHistory(join(historyDir, "console-history"), () => undefined);
  }
  return repl;
}

/**
 * `herald console`: the app booted in the cli run mode (its initializers started, no port
 * opened), and a REPL holding it: `run("user:create", { … })`, `resolve(Service)`, `actions()`,
 * with history in `.herald/console-history`. Ending the REPL stops the app. Input that is not a
 * terminal is a script: its lines run one after the other, and the first that fails ends it
 * with exit code 1.
 */
export function registerConsoleCommand(program: Argv, app: CliAppOptions, quiet: boolean, output: CommandOutput): void {
  program.command("console", "Open a REPL with the app booted: run(action, params), resolve(Service), actions()", {}, async () => {
    const server = await loadCliServer({ ...app, quiet });
    await server.start();
    if (process.stdin.isTTY !== true) {
      const { runConsoleScript } = require("./console-script") as typeof import("./console-script");
      const ranEveryLine = await runConsoleScript(consoleContext(server), { input: process.stdin, stdout: process.stdout, stderr: process.stderr });
      await server.stop();
      output.exit(ranEveryLine ? ExitCode.success : ExitCode.error);
      return;
    }
    const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
    if (interactive) {
      process.stdout.write(`${server.config.name}: ${server.registry.list().length} actions. run("name", params), resolve(Service), actions(); .exit ends.\n`);
    }
    const repl = openRepl(server, interactive);
    await new Promise<void>((resolve) => repl.once("exit", resolve));
    await server.stop();
    output.exit(ExitCode.success);
  });
}
