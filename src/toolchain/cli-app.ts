import { findAppDir, loadAppConfig, ResolvedAppConfig } from "../core/app-config";
import { resolveEnvironment } from "../core/config";
import { LogLevel, RUN_MODE } from "../core/constants";
import { ErrorType, TypedError } from "../core/errors";
import type { HeraldServer } from "../core/server";
import type { AppBoot } from "./app-boot";
import type { CompileCache } from "./compile-cache";
import { registerRecordingTypeScript, registerTypeScript } from "./typescript-hook";

/**
 * Loading the app is what makes a command slow (the TypeScript hook, the transports, the app's
 * own modules), so the CLI does it only in the commands that need the app, and only then.
 */

/** Where the app is (found from the working directory when absent), and how to boot it. */
export interface CliAppOptions {
  appDir?: string;
  boot: AppBoot;
}

export function noAppError(): TypedError {
  return new TypedError({
    message:
      'No Herald application found here: add herald.config.ts, point package.json "herald.app" at the app folder, or create one with "herald new <dir>"',
    type: ErrorType.CONFIG_ERROR,
  });
}

/** The app's folders, read from its herald.config.ts; undefined when there is no app here. */
export function findCliAppConfig(appDir: string | undefined = findAppDir()): ResolvedAppConfig | undefined {
  if (!appDir) return undefined;
  registerTypeScript(appDir);
  return loadAppConfig(appDir);
}

/**
 * For `herald build`: from now on SWC compiles every module of the app afresh and the result
 * records them; undefined when this process already loads TypeScript another way.
 */
export function recordCompiledModules(appDir: string): CompileCache | undefined {
  return registerRecordingTypeScript(appDir);
}

/** The app's classes loaded in CLI run mode, nothing initialized: enough to list or run actions. */
export async function loadCliServer(options: CliAppOptions & { quiet?: boolean }): Promise<HeraldServer> {
  const appDir = options.appDir ?? findAppDir();
  if (!appDir) throw noAppError();
  registerTypeScript(appDir);
  const server = options.boot.createHerald({ appDir, runMode: RUN_MODE.cli, ...cliLogLevel(options.quiet) });
  return server.load();
}

/**
 * A command's output is its result on stdout, so its logs start at `warn` unless LOG_LEVEL says
 * otherwise: the boot's info lines and the call's own log line would repeat what stdout says.
 */
function cliLogLevel(quiet: boolean | undefined): { logLevel?: "silent" | LogLevel } {
  if (quiet) return { logLevel: "silent" };
  return resolveEnvironment(process.env).LOG_LEVEL === undefined ? { logLevel: LogLevel.warn } : {};
}

/** Boots the whole app for `herald start`. */
export async function startCliServer(options: CliAppOptions & { workersOnly?: boolean }): Promise<HeraldServer> {
  const appDir = options.appDir ?? findAppDir();
  if (!appDir) throw noAppError();
  registerTypeScript(appDir);
  return options.boot.startHerald({ appDir, runMode: options.workersOnly ? RUN_MODE.workers : RUN_MODE.server });
}

/** Serves the app over MCP on stdin/stdout for `herald mcp`; resolves when the client leaves. */
export async function serveCliMcp(options: CliAppOptions): Promise<void> {
  const appDir = options.appDir ?? findAppDir();
  if (!appDir) throw noAppError();
  registerTypeScript(appDir);
  await options.boot.serveMcpStdio({ appDir });
}

/**
 * What an operator command prints for `operation`: `{"response": …}` and exit code 0, or the error
 * body and 1. `production` is asked once the operation has ended, as the app it booted says.
 */
export async function operationOutcome(operation: () => Promise<unknown>, production: () => boolean): Promise<{ text: string; code: 0 | 1 }> {
  const { errorBody, toTypedError } = require("../core/error-body") as typeof import("../core/error-body");
  try {
    return { text: `${JSON.stringify({ response: await operation() })}\n`, code: 0 };
  } catch (thrown) {
    return { text: `${JSON.stringify(errorBody(toTypedError(thrown, false), production()))}\n`, code: 1 };
  }
}

/**
 * The body of an operator command (`tasks`, `migrate`): boots the app in cli mode, runs one
 * operation, prints `{"response": …}` or the error body, and stops the app again.
 */
export async function runBootedCommand(
  options: CliAppOptions & { quiet: boolean },
  output: { write(text: string): void; exit(code: number): void },
  operation: (server: HeraldServer) => Promise<unknown>,
): Promise<void> {
  let server: HeraldServer | undefined;
  let code: 0 | 1 = 1;
  try {
    const outcome = await operationOutcome(
      async () => {
        server = await loadCliServer(options);
        await server.start();
        return operation(server);
      },
      () => server?.config.production ?? true,
    );
    output.write(outcome.text);
    code = outcome.code;
  } finally {
    await server?.stop().catch(() => undefined);
  }
  output.exit(code);
}
