import { ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";

export const HERALD_CLI = require.resolve("../../../dist/cli-entry.js");

/** `herald start` of the soak app, on a loopback port; keeps its warning and error log lines. */
export class SoakServer {
  readonly url: string;
  /** Log lines at warn (40) and above, and any output that is not a log line. */
  readonly complaints: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(
    readonly label: string,
    appDir: string,
    port: number,
    env: NodeJS.ProcessEnv,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, [HERALD_CLI, "start"], {
      cwd: appDir,
      env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_FORMAT: "json", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      createInterface({ input: stream }).on("line", (line) => {
        try {
          if ((JSON.parse(line) as { level: number }).level >= 40) this.complaints.push(line);
        } catch {
          this.complaints.push(line);
        }
      });
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Resident memory, in MB, from /proc. */
  rssMb(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  }

  async ready(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`${this.label} exited (${this.child.exitCode}):\n${this.complaints.join("\n")}`);
      const status = await fetch(`${this.url}/api/status`).then((response) => response.status, () => 0);
      if (status === 200) return;
      await sleep(250);
    }
    throw new Error(`${this.label} did not answer /api/status within ${timeoutMs} ms`);
  }

  /** SIGTERM, as an operator stops it; resolves with its exit code. */
  stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill("SIGTERM");
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}
