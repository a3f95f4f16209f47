import { rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { injectable } from "tsyringe";
import { ExitCode, RUN_MODE } from "../../core/constants";
import { APP_INITIALIZERS, type Initializer } from "../../core/initializer";
import { HeraldServer } from "../../core/server";
import { prepareCliSocketDirectory, withOwnerOnlyUmask } from "./cli-socket-directory";
import { cliSocketPath, forwardToRunningServer, takesActionCommands, type ForwardedCall, type ForwardedReply } from "./running-server";

/**
 * In development, a server on the embedded database (no DATABASE_URL) takes the app's action
 * commands and `herald tasks` commands on a Unix socket, so that they work beside it: the
 * embedded database serves one process, and the CLI would otherwise be refused it; without Redis
 * the task queue is in this process's memory, where no other process reaches it. The call runs
 * here, on a CLI connection, and the CLI prints what it would have printed, with the same exit code.
 */
@injectable()
export class CliSocketInitializer implements Initializer {
  readonly name = "cli-socket";
  readonly runModes = [RUN_MODE.server];
  /** After the app's initializers, and what actions use: a call forwarded here finds the app started. */
  readonly dependsOn = [APP_INITIALIZERS, "channels", "tasks", "rate-limit"];
  private listener: Server | undefined;

  constructor(private readonly server: HeraldServer) {}

  async start(): Promise<void> {
    const { config, app } = this.server;
    if (!takesActionCommands(config)) return;
    const path = cliSocketPath(app.root);
    const refused = prepareCliSocketDirectory(dirname(path));
    if (refused) {
      this.server.logger.warn({ path }, `cli-socket: not taking action commands: ${refused}; the CLI runs them itself`);
      return;
    }
    // A socket another running server answers on stays its own; one left behind by a crash is removed.
    const running = await forwardToRunningServer(path, { kind: "probe" }, () => undefined, () => undefined).catch(() => undefined);
    if (running) return;
    rmSync(path, { force: true });
    const listener = createServer((socket) => void this.serve(socket));
    await new Promise<void>((resolve, reject) => {
      listener.once("error", reject);
      listener.once("listening", () => resolve());
      // Only the app's own user may run its actions through it, from the moment it exists.
      withOwnerOnlyUmask(() => listener.listen(path));
    });
    listener.on("error", (error) => this.server.logger.warn({ err: error }, "cli-socket: the socket failed"));
    this.listener = listener;
    this.server.logger.debug({ path }, "cli-socket: taking action commands");
  }

  async stop(): Promise<void> {
    const listener = this.listener;
    if (!listener) return;
    this.listener = undefined;
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    rmSync(cliSocketPath(this.server.app.root), { force: true });
  }

  private async serve(socket: Socket): Promise<void> {
    socket.on("error", () => undefined);
    const send = (reply: ForwardedReply) => socket.write(`${JSON.stringify(reply)}\n`);
    const lines = createInterface({ input: socket });
    lines.on("error", () => undefined);
    const line = await new Promise<string | undefined>((resolve) => {
      lines.once("line", resolve);
      lines.once("close", () => resolve(undefined));
    });
    lines.close();
    let code: ExitCode = ExitCode.error;
    let call: ForwardedCall | undefined;
    try {
      call = line ? (JSON.parse(line) as ForwardedCall) : undefined;
      // Deferred, as the CLI defers it: a server that never takes a command need not load the flags and their parser.
      const { runForwardedCall } = require("./forwarded-calls") as typeof import("./forwarded-calls");
      code = call ? await runForwardedCall(this.server, call, send) : ExitCode.error;
    } catch (error) {
      this.server.logger.error({ err: error, ...(call?.kind === "action" ? { action: call.action } : {}) }, "cli-socket: a forwarded call failed");
    }
    send({ exit: code, pid: process.pid });
    socket.end();
  }
}
