import { resolve } from "node:path";
import { loadConfig, type HeraldConfig } from "../../core/config";
import type { ExitCode } from "../../core/constants";
import { withEnvFiles } from "../../core/env-files";
import type { CommandOutput } from "../../toolchain/command-output";
import { cliSocketRefusal } from "./cli-socket-directory";
import { cliSocketPath, forwardToRunningServer, takesActionCommands, type ForwardedCall } from "./running-server";

/**
 * Where a command runs: it ran on the app's running server, with this exit code; or it is this
 * process's to run, and `verboseNote` says so on stderr under `--verbose` (undefined when why was
 * already said).
 */
export type CommandPlace = { ranOnServer: ExitCode } | { ranOnServer?: undefined; verboseNote: string | undefined };

/** Herald's own settings, from the environment and the app's env files; undefined when they are invalid. */
function heraldSettings(appDir: string): HeraldConfig | undefined {
  try {
    return loadConfig(withEnvFiles(appDir, process.env));
  } catch {
    // The command then runs here, and its boot names the bad setting.
    return undefined;
  }
}

/**
 * Sends a command to the app's running server when one takes commands (see
 * CliSocketInitializer), before this process loads anything of the app: what the app needs at its
 * boot (a key its middleware reads, a service it connects to) is the server's, which has it, and
 * not this process's. Only Herald's own settings are read here, to know whether a server would
 * take the command.
 */
export async function sendToRunningServer(
  appDir: string,
  call: ForwardedCall,
  label: string,
  output: CommandOutput,
  verbose: boolean,
): Promise<CommandPlace> {
  const here = `${label}: run by this process`;
  const config = heraldSettings(appDir);
  if (!config || !takesActionCommands(config)) return { verboseNote: here };
  const path = cliSocketPath(resolve(appDir));
  const refused = cliSocketRefusal(path);
  if (refused) {
    // Said even without --verbose: someone else may be listening where the app's server should.
    process.stderr.write(`${label}: not sent to the running server: ${refused}; run by this process\n`);
    return { verboseNote: undefined };
  }
  const ran = await forwardToRunningServer(path, call, (text) => output.write(text));
  if (!ran) return { verboseNote: `${here} (no server of this app takes action commands at ${path})` };
  if (verbose) process.stderr.write(`${label}: run by the app's running server (process ${ran.pid}), through ${path}\n`);
  return { ranOnServer: ran.code };
}
