import { ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export interface ProcessSpec {
  /** What the table calls it. */
  label: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where stdout goes (the request log of a Herald server): /dev/null unless given. */
  stdoutFile?: string;
}

/** A port nobody listens on right now, for a server about to be started. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

const STDERR_TAIL = 4000;
/** USER_HZ: the unit of the CPU times in /proc, 100 on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU ticks of `pid` and of every live process below it (the children files of /proc/<pid>/task). */
function treeCpuTicks(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the parenthesised command name.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  let ticks = Number(fields[11]) + Number(fields[12]);
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${thread}/children`, "utf8").trim();
    for (const child of children ? children.split(" ") : []) {
      try {
        ticks += treeCpuTicks(Number(child));
      } catch {
        // It exited meanwhile.
      }
    }
  }
  return ticks;
}

/** A server (or worker) process under test, started apart from the load generator. */
export class ServerProcess {
  private readonly child: ChildProcess;
  private stderr = "";
  private exitCode: number | null | undefined;
  private readonly exited: Promise<void>;

  constructor(readonly spec: ProcessSpec) {
    const stdout = openSync(spec.stdoutFile ?? "/dev/null", "a");
    try {
      this.child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["ignore", stdout, "pipe"] });
    } finally {
      closeSync(stdout);
    }
    this.child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : 0);
        resolve();
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** Fails with what the process printed when it is no longer running. */
  assertRunning(): void {
    if (!this.running) throw new Error(`${this.spec.label} exited (code ${this.exitCode}): ${this.stderr.trim() || "no output on stderr"}`);
  }

  /** Polls `url` until it answers 200, the process dies, or `timeoutMs` passes. */
  async waitForHttp(url: string, timeoutMs = 30_000): Promise<number> {
    const started = performance.now();
    for (;;) {
      this.assertRunning();
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
        await response.arrayBuffer();
        if (response.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      if (performance.now() - started > timeoutMs) throw new Error(`${this.spec.label} did not answer ${url} within ${timeoutMs} ms`);
      await sleep(5);
    }
  }

  /** Resident memory now (VmRSS) and at its peak (VmHWM), in bytes; Linux only, NaN elsewhere. */
  memory(): { rss: number; peakRss: number } {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
      const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
      return { rss: kib("VmRSS"), peakRss: kib("VmHWM") };
    } catch {
      return { rss: Number.NaN, peakRss: Number.NaN };
    }
  }

  /**
   * CPU time the process and its live descendants have used (user + system), in seconds: a
   * `herald start --processes` primary's server processes included. Linux only, NaN elsewhere.
   */
  cpuSeconds(): number {
    try {
      return treeCpuTicks(this.pid) / CLOCK_TICKS_PER_SECOND;
    } catch {
      return Number.NaN;
    }
  }

  signal(name: NodeJS.Signals): void {
    if (this.running) this.child.kill(name);
  }

  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

export interface Completed {
  code: number;
  ms: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, timing it from spawn to exit. */
export function runToExit(spec: Omit<ProcessSpec, "stdoutFile">, timeoutMs: number): Promise<Completed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-STDERR_TAIL)));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, ms: performance.now() - started, stdout, stderr });
    });
  });
}

/** Stops every process, whatever happens to the others. */
export async function stopAll(processes: readonly (ServerProcess | undefined)[]): Promise<void> {
  await Promise.allSettled(processes.map((process) => process?.stop()));
}
