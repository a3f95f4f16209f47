import { ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../support/free-port";

/**
 * A redis-server of this test file alone, on a free loopback port, that the test may kill and
 * start again on the same port: the shared Redis of the machine is never stopped. It keeps an
 * append-only file synced at every write, so what was queued before a crash is there after it.
 */
export class OwnRedis {
  private process: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly settings: readonly string[],
  ) {}

  /** `settings`: more redis-server arguments, such as `["--rename-command", "CONFIG", ""]`. */
  static async start(settings: readonly string[] = []): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort(), mkdtempSync(join(tmpdir(), "herald-own-redis-")), settings);
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server again (after `crash`), on the same port and with the same data. */
  async resume(): Promise<void> {
    if (this.process) return;
    const child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always", ...this.settings],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    this.process = child;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) {
          child.stdout!.off("data", onData);
          resolve();
        }
      };
      child.stdout!.on("data", onData);
      child.once("exit", (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
    });
    child.stdout!.resume();
    child.stderr!.resume();
  }

  /** Kills the server at once, as a crash would; clients see their connections drop. */
  async crash(): Promise<void> {
    const child = this.process;
    if (!child) return;
    this.process = undefined;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async destroy(): Promise<void> {
    await this.crash();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
