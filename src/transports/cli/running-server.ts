import { createHash } from "node:crypto";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { HeraldConfig } from "../../core/config";
import type { ExitCode } from "../../core/constants";

/**
 * Whether a server with this configuration takes the CLI's action commands and `herald tasks`
 * commands, and the CLI sends them: in development (not in production, nor under NODE_ENV=test,
 * whose servers boot beside each other's CLI runs), on the embedded database (no DATABASE_URL).
 */
export function takesActionCommands(config: HeraldConfig): boolean {
  return config.env === "development" && config.databaseUrl === undefined;
}

/** A path for a Unix socket must fit in sockaddr_un (108 bytes on Linux, 104 on macOS). */
const SOCKET_PATH_BYTES = 100;

/**
 * Where a server of the app at `appRoot` takes the action commands of the CLI: in the app's
 * `.herald/cli/`, or, when that path is too long, in a folder of this user's in the temporary
 * folder, named by a hash of the app's path. Either folder is this user's alone (see
 * cli-socket-directory.ts): a name in the shared temporary folder is one any local user can take first.
 */
export function cliSocketPath(appRoot: string, temporaryFolder = tmpdir()): string {
  const inApp = join(appRoot, ".herald", "cli", "cli.sock");
  if (Buffer.byteLength(inApp) <= SOCKET_PATH_BYTES) return inApp;
  const hash = createHash("sha256").update(appRoot).digest("hex").slice(0, 16);
  return join(temporaryFolder, `herald-cli-${process.getuid?.() ?? "user"}`, `${hash}.sock`);
}

/** An action command, as the CLI sends it before it loads the app: the server reads the flags with the action's schema. */
export interface ForwardedActionCommand {
  kind: "action";
  action: string;
  /** The words of the command line after the action's name, as typed. */
  args: string[];
  /** Whether the CLI's stdout is a terminal: the JSON is then indented. */
  pretty: boolean;
  /** The command's id, which the server's line about the call carries. */
  requestId?: string;
}

/** One `herald tasks` operation, on the running server's own queue. */
export type TasksOperation =
  | { name: "stats"; queue?: string }
  | { name: "schedules" }
  | { name: "failed"; queue: string; limit: number }
  | { name: "retry"; queue: string; jobId: string }
  | { name: "job"; queue: string; jobId: string }
  | { name: "cancel"; queue: string; jobId: string }
  | { name: "remove"; queue: string; jobId: string }
  /** `params`: the JSON text of `--params`, read where the operation runs. */
  | { name: "enqueue"; action: string; params?: string; options: { delayMs?: number; jobId?: string } };

export interface ForwardedTasksCommand {
  kind: "tasks";
  operation: TasksOperation;
}

/** Whether a server is answering on the socket: it answers with its exit code alone. */
export interface ForwardedProbe {
  kind: "probe";
}

/** What the CLI sends a running server, one JSON document on one line. */
export type ForwardedCall = ForwardedActionCommand | ForwardedTasksCommand | ForwardedProbe;

/**
 * What the server sends back, a JSON document a line: text the CLI would have printed on stdout
 * (`write`) or stderr (`stderr`), then its exit code.
 */
export type ForwardedReply = { write: string } | { stderr: string } | { exit: ExitCode; pid: number };

/**
 * Runs the call on the app's running server, if one takes commands at `socketPath`:
 * resolves with what it printed and its exit code, or undefined when no server answers (none
 * runs, or one left its socket behind), and the CLI then runs the call itself.
 */
export function forwardToRunningServer(
  socketPath: string,
  call: ForwardedCall,
  write: (text: string) => void,
  say: (text: string) => void = (text) => process.stderr.write(text),
): Promise<{ code: ExitCode; pid: number } | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let connected = false;
    let outcome: { code: ExitCode; pid: number } | undefined;
    socket.once("connect", () => {
      connected = true;
      socket.end(`${JSON.stringify(call)}\n`);
    });
    const lines = createInterface({ input: socket });
    // The socket's own error listener below decides; readline would otherwise throw it again.
    lines.on("error", () => undefined);
    lines.on("line", (line) => {
      const reply = JSON.parse(line) as ForwardedReply;
      if ("write" in reply) write(reply.write);
      else if ("stderr" in reply) say(reply.stderr);
      else outcome = { code: reply.exit, pid: reply.pid };
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (!connected) resolve(undefined);
      else reject(error);
    });
    socket.once("close", () => {
      if (!connected) return;
      if (outcome) resolve(outcome);
      else reject(new Error("The running server closed the connection before the call ended"));
    });
  });
}
