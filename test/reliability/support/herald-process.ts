import { ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { EventEmitter } from "node:events";
import { createInterface } from "node:readline";

const HERALD_BIN = join(__dirname, "../../../dist/cli-entry.js");

export type LogLine = Record<string, any>;

/**
 * `herald start` of the built CLI in a child process, with JSON logs kept line by line, so a
 * test can signal it, watch what it logs and read its exit code.
 */
export class HeraldProcess {
  readonly logs: LogLine[] = [];
  /** Every line of stdout and stderr that is not a JSON log line. */
  readonly otherOutput: string[] = [];
  readonly exited: Promise<number | null>;
  url = "";
  private readonly logged = new EventEmitter();
  private exitCode: number | null | undefined;

  private constructor(private readonly child: ChildProcess) {
    // "close", not "exit": by then every line it wrote has been read, so a test that awaits the
    // exit finds its last lines (a cluster's processes write to the same pipe until they exit).
    this.exited = new Promise((resolve) => child.once("close", (code) => resolve(code)));
    void this.exited.then((code) => {
      this.exitCode = code;
      this.logged.emit("change");
    });
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on("line", (line) => {
        try {
          this.logs.push(JSON.parse(line) as LogLine);
        } catch {
          this.otherOutput.push(line);
        }
        this.logged.emit("change");
      });
    }
  }

  /**
   * Resolves when `condition` holds, checked at each line the process logs: no deadline of its
   * own, since a loaded machine only makes the process slower; the test's timeout bounds it.
   */
  private until(what: string, condition: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (condition()) {
          this.logged.off("change", check);
          resolve();
        } else if (this.exitCode !== undefined) {
          this.logged.off("change", check);
          reject(new Error(`herald start exited (${this.exitCode}) before ${what}:\n${this.otherOutput.join("\n")}`));
        }
      };
      this.logged.on("change", check);
      check();
    });
  }

  /** Starts the app in `appDir` on a free port, and resolves once it logged "server started". */
  static async start(appDir: string, env: NodeJS.ProcessEnv, args: string[] = []): Promise<HeraldProcess> {
    const started = HeraldProcess.spawn(appDir, env, args);
    await started.until("it started", () => started.logs.some((line) => line.msg === "server started"));
    started.url = started.logs.find((line) => line.msg === "server started")!.url as string;
    return started;
  }

  /** `herald start <args>` in `appDir`, without waiting for anything: for a start that is refused or fails. */
  static spawn(appDir: string, env: NodeJS.ProcessEnv, args: string[] = []): HeraldProcess {
    const child = spawn(process.execPath, [HERALD_BIN, "start", ...args], {
      cwd: appDir,
      env: { ...process.env, NODE_ENV: "test", PORT: "0", LOG_FORMAT: "json", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new HeraldProcess(child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  signal(name: NodeJS.Signals): void {
    if (this.running) this.child.kill(name);
  }

  /** Log lines with this message (and, optionally, these fields). */
  lines(msg: string, fields: Record<string, unknown> = {}): LogLine[] {
    return this.logs.filter((line) => line.msg === msg && Object.entries(fields).every(([key, value]) => line[key] === value));
  }

  /** Waits until at least `count` lines match. */
  async waitForLines(msg: string, count: number, fields: Record<string, unknown> = {}): Promise<void> {
    await this.until(`it logged "${msg}" ${count} times`, () => this.lines(msg, fields).length >= count);
  }

  /** Ends it however it is doing: SIGKILL when still running. */
  async kill(): Promise<void> {
    this.signal("SIGKILL");
    await this.exited;
  }
}
