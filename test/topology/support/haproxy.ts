import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";

/** The configuration docs/deployment.md shows and compose.yaml mounts: the tests run the same file. */
export const HAPROXY_CONFIG = join(__dirname, "../../../deploy/haproxy.cfg");

function haproxyPath(): string {
  const found = spawnSync("sh", ["-c", "command -v haproxy"], { encoding: "utf8" }).stdout.trim();
  // Never skipped: .ci/run installs HAProxy from Debian's packages.
  if (!found) throw new Error("The topology suite needs HAProxy on the PATH: apt-get install haproxy");
  return found;
}

/**
 * HAProxy in the foreground on a configuration file that takes its addresses from `env`, with
 * what it said kept for the message of a test that finds the balancer not answering.
 */
export class Haproxy {
  output = "";
  /** Resolves with HAProxy's exit code when it ends, whoever ended it. */
  readonly exited: Promise<number | null>;
  private stopping = false;

  private constructor(private readonly child: ChildProcess) {
    for (const stream of [child.stdout!, child.stderr!]) stream.setEncoding("utf8").on("data", (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    void this.exited.then((code) => {
      if (!this.stopping) this.output += `\nHAProxy exited (${code})`;
    });
  }

  static start(env: Record<string, string>, config = HAPROXY_CONFIG): Haproxy {
    const child = spawn(haproxyPath(), ["-f", config, "-db"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    return new Haproxy(child);
  }

  stop(): void {
    this.stopping = true;
    this.child.kill("SIGKILL");
  }
}
