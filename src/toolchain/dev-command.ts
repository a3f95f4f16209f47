import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { setPriority } from "node:os";
import { basename, join, relative, sep } from "node:path";
import type { Argv } from "yargs";
import { ExitCode } from "../core/constants";
import { type AppWatcher, IGNORED_FOLDERS, watchApp } from "./app-watcher";
import type { CommandOutput } from "./command-output";
import { noAppError } from "./cli-app";
import type { DevMessage } from "./dev-reloads";

const CODE_FILE = /\.(?:[cm]?[jt]s|json)$/;
/** Files beside the code that no module loads at run time: a lockfile, and type declarations (the generated client types among them). */
const NOT_LOADED = /(?:^|[\\/])package-lock\.json$|\.d\.[cm]?ts$/;
/** Changes that come together (an editor's save, a git checkout) make one reload. */
const SETTLE_MS = 50;

/** The app's env files (`.env`, `.env.<NODE_ENV>`, `.env.local`), read once per process; not `.env.example`. */
function isEnvFile(file: string): boolean {
  return /^\.env(?:\.[\w-]+)?$/.test(file) && file !== ".env.example";
}

/** Whether a change to `file` (relative to the app root) is one to reload the app for. */
export function reloadsFor(file: string): boolean {
  if (isEnvFile(file)) return true;
  const parts = file.split(sep);
  if (parts.some((part) => IGNORED_FOLDERS.has(part))) return false;
  if (parts[0] === "test" || parts[0] === "spec" || /\.test\.[jt]s$/.test(file)) return false;
  return CODE_FILE.test(file) && !NOT_LOADED.test(file);
}

/**
 * Whether a change needs a new process rather than a reload in place: the app's config and the
 * files that decide how its modules load are read once per process.
 */
export function restartsFor(file: string): boolean {
  return isEnvFile(file) || /^herald\.config\.[cm]?[jt]s$/.test(file) || file === "package.json" || /^tsconfig(\..+)?\.json$/.test(basename(file));
}

const CLI_ENTRY = join(__dirname, "../cli-entry.js");
/** The type check yields the processor to the server booting beside it. */
const CHECKER_NICENESS = 10;

/**
 * `herald dev`: `herald start` in a child process, which reloads the app in place whenever a code
 * file of the app changes (its actions, middleware, channels, initializers, services), keeping
 * open what the app keeps across reloads; a change to its config starts a new process. When the
 * app has a tsconfig.json, `tsc --noEmit` runs after each reload: its errors are printed, and the
 * app is served anyway (SWC compiles it without checking types).
 */
class DevSupervisor {
  private child: ChildProcess | undefined;
  private checker: ChildProcess | undefined;
  private timer: NodeJS.Timeout | undefined;
  private watcher: AppWatcher | undefined;
  private restarting: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly appDir: string,
    private readonly say: (line: string) => void,
  ) {}

  start(): void {
    this.spawnServer();
    this.watcher = watchApp(this.appDir, (file) => {
      if (!reloadsFor(file)) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.reload(file), SETTLE_MS);
    });
    this.checkTypes();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.watcher?.close();
    this.checker?.kill();
    await this.stopServer();
  }

  private spawnServer(): void {
    this.child = spawn(process.execPath, [...process.execArgv, CLI_ENTRY, "start", "--dev-reloads"], {
      cwd: this.appDir,
      stdio: ["inherit", "inherit", "inherit", "ipc"],
      env: process.env,
    });
    const child = this.child;
    child.on("message", (message: DevMessage) => {
      if (message?.type === "reloaded" || message?.type === "reload-failed") this.checkTypes();
    });
    child.once("exit", (code, signal) => {
      if (this.child === child && !this.stopping && !this.restarting) {
        this.say(`herald dev: the server exited (${signal ?? code}); it starts again on the next change`);
        this.child = undefined;
      }
    });
  }

  private stopServer(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  }

  private async reload(file: string): Promise<void> {
    if (this.stopping) return;
    await this.restarting;
    const child = this.child;
    if (child?.connected && !restartsFor(file)) {
      this.say(`herald dev: ${file} changed, reloading`);
      child.send({ type: "reload" } satisfies DevMessage);
      return;
    }
    this.restarting = (async () => {
      this.say(`herald dev: ${file} changed, starting the server again`);
      await this.stopServer();
      if (!this.stopping) this.spawnServer();
    })();
    await this.restarting;
    this.restarting = undefined;
    this.checkTypes();
  }

  /** Type errors are shown, not fatal: the check runs beside the server, and a newer change cancels it. */
  private checkTypes(): void {
    if (!existsSync(join(this.appDir, "tsconfig.json"))) return;
    this.checker?.kill();
    let tsc: string;
    try {
      tsc = require.resolve("typescript/bin/tsc", { paths: [this.appDir, __dirname] });
    } catch {
      return;
    }
    const checker = spawn(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", this.appDir], { cwd: this.appDir, stdio: ["ignore", "pipe", "ignore"] });
    this.checker = checker;
    try {
      if (checker.pid !== undefined) setPriority(checker.pid, CHECKER_NICENESS);
    } catch {
      // Where priorities cannot be set, the check runs at the server's.
    }
    let report = "";
    checker.stdout!.on("data", (chunk: Buffer) => (report += chunk.toString()));
    checker.once("exit", (code) => {
      if (this.checker !== checker || code === null) return;
      this.checker = undefined;
      if (code === 0) return;
      this.say(`herald dev: type errors (the app is served anyway):\n${report.trimEnd()}`);
    });
  }
}

export function registerDevCommand(program: Argv, appDir: string | undefined, output: CommandOutput): void {
  program.command("dev", "Serve the app, and serve it again whenever its code changes; type errors are shown, not fatal", {}, async () => {
    if (!appDir) throw noAppError();
    const supervisor = new DevSupervisor(appDir, (line) => process.stderr.write(`${line}\n`));
    supervisor.start();
    process.stderr.write(`herald dev: watching ${relative(process.cwd(), appDir) || "."} for changes\n`);
    await new Promise<void>((resolve) => {
      const end = () => void supervisor.stop().then(resolve);
      process.once("SIGINT", end);
      process.once("SIGTERM", end);
    });
    output.exit(ExitCode.success);
  });
}
