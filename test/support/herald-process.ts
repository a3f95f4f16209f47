import { ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

const HERALD_BIN = join(__dirname, "../../dist/cli-entry.js");

/** A Herald server running in a child process: `herald start` of the built CLI. */
export class HeraldProcess {
  readonly logs: Record<string, any>[] = [];
  private stderr = "";
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once("exit", (code) => resolve(code));
    });
  }

  /**
   * Starts the app in `cwd` on a free port with JSON logs, and resolves once its "server started"
   * line names the URL it bound.
   */
  static start(cwd: string, env: NodeJS.ProcessEnv): Promise<HeraldProcess> {
    const child = spawn(process.execPath, [HERALD_BIN, "start"], {
      cwd,
      env: { ...process.env, NODE_ENV: "test", PORT: "0", LOG_FORMAT: "json", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const logs: Record<string, any>[] = [];
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve, reject) => {
      let started: HeraldProcess | undefined;
      createInterface({ input: child.stdout! }).on("line", (line) => {
        let entry: Record<string, any>;
        try {
          entry = JSON.parse(line);
        } catch {
          return;
        }
        (started?.logs ?? logs).push(entry);
        if (!started && entry.msg === "server started") {
          started = new HeraldProcess(child, entry.url as string);
          started.logs.push(...logs);
          started.stderr = stderr;
          child.stderr!.on("data", (chunk: Buffer) => (started!.stderr += chunk.toString()));
          resolve(started);
        }
      });
      child.once("exit", (code) => {
        if (!started) reject(new Error(`herald start exited with ${code} before it started:\n${stderr}`));
      });
    });
  }

  get wsUrl(): string {
    return `${this.url.replace(/^http/, "ws")}/ws`;
  }

  /** Asks it to stop (SIGTERM), as an operator would, and resolves with its exit code. */
  stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
    return this.exited;
  }

  /** Kills it without letting it clean up, as a crash or an OOM kill would. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    await this.exited;
  }
}
