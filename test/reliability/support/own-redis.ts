import { ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TcpProxy } from "../../support/tcp-proxy";

/**
 * A redis-server of this test file alone, that the test may kill and start again: the shared
 * Redis of the machine is never stopped. The server listens on a Unix socket of its own folder
 * and clients reach it through a TCP relay on a port the OS gave, which stays bound while the
 * server is down, so a restart never races another process for the port. It keeps an
 * append-only file synced at every write, so what was queued before a crash is there after it.
 */
export class OwnRedis {
  private process: ChildProcess | undefined;

  private constructor(
    private readonly dir: string,
    private readonly proxy: TcpProxy,
    private readonly settings: readonly string[],
  ) {}

  /** `settings`: more redis-server arguments, such as `["--rename-command", "CONFIG", ""]`. */
  static async start(settings: readonly string[] = []): Promise<OwnRedis> {
    const dir = mkdtempSync(join(tmpdir(), "herald-own-redis-"));
    const redis = new OwnRedis(dir, await TcpProxy.start({ path: join(dir, "redis.sock") }), settings);
    await redis.resume();
    return redis;
  }

  get port(): number {
    return this.proxy.port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server again (after `crash`), with the same data, behind the same port. */
  async resume(): Promise<void> {
    if (this.process) return;
    const child = spawn(
      "redis-server",
      ["--port", "0", "--unixsocket", join(this.dir, "redis.sock"), "--dir", this.dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always", ...this.settings],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    this.process = child;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (/ready to accept connections/i.test(output)) {
          child.stdout!.off("data", onData);
          resolve();
        }
      };
      child.stdout!.on("data", onData);
      child.once("exit", (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
    });
    child.stdout!.resume();
    child.stderr!.resume();
    this.proxy.restore();
  }

  /** Kills the server at once, as a crash would; clients see their connections drop. */
  async crash(): Promise<void> {
    const child = this.process;
    if (!child) return;
    this.process = undefined;
    this.proxy.cut();
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async destroy(): Promise<void> {
    await this.crash();
    await this.proxy.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
