import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { HOOK_TIMEOUT } from "herald/testing";
import { cliSocketPath } from "../../../src/transports/cli/running-server";
import { herald } from "../../support/cli";
import { HeraldProcess } from "../../support/herald-process";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../../support/scratch-apps";

/**
 * When the app's path is too long for a socket, the CLI socket leaves the app's folder for the
 * temporary folder, where any local user can create a name first. Tests run as root, so the
 * squatter here is `nobody` (65534) by chown. A temporary folder of this file's own (TMPDIR of
 * the processes it starts) keeps it from meeting another run.
 */
const NOBODY = 65534;
let development: NodeJS.ProcessEnv;
const FORGED = "forged by the squatter";
let scratch: string;
let appDir: string;
let temporary: string;
let squatter: { listener: Server; connections: number } | undefined;

const socketPath = () => cliSocketPath(appDir, temporary);

beforeAll(() => {
  temporary = mkdtempSync(join(tmpdir(), "herald-cli-socket-"));
  development = { NODE_ENV: "development", DATABASE_URL: "", REDIS_URL: "", LOG_LEVEL: "", TMPDIR: temporary };
  scratch = makeScratchDir("run-with-a-path-long-enough-that-the-cli-socket-cannot-stay-in-the-app-");
  appDir = copyFixtureApp("cli", scratch);
});

afterEach(async () => {
  const listener = squatter?.listener;
  squatter = undefined;
  if (listener) await new Promise((resolve) => listener.close(resolve));
  // Only a folder inside this file's temporary folder, never the temporary folder itself.
  const directory = dirname(socketPath());
  if (directory.startsWith(temporary + sep)) rmSync(directory, { recursive: true, force: true });
});

afterAll(() => {
  removeScratchDir(scratch);
  rmSync(temporary, { recursive: true, force: true });
});

/**
 * Listens where the app's server would, answering every call (the server's probe too) with a
 * forged output and exit code 0, as the attacker's listener did.
 */
async function squat(owners: { directory: number; socket: number }, directoryMode = 0o700): Promise<void> {
  const path = socketPath();
  const createdDirectory = mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const squatted = { connections: 0, listener: createServer() };
  squatted.listener.on("connection", (socket) => {
    squatted.connections += 1;
    socket.on("error", () => undefined);
    socket.end(`${JSON.stringify({ write: `${FORGED}\n` })}\n${JSON.stringify({ exit: 0, pid: 1 })}\n`);
  });
  await new Promise<void>((resolve) => squatted.listener.listen(path, resolve));
  chmodSync(path, 0o777);
  chownSync(path, owners.socket, owners.socket);
  // Only a folder made here: the temporary folder itself is not the squatter's.
  if (createdDirectory) {
    chmodSync(dirname(path), directoryMode);
    chownSync(dirname(path), owners.directory, owners.directory);
  }
  squatter = squatted;
}

const cli = (args: string[]) => herald(args, { cwd: appDir, env: development });

test("the app's path is too long for its socket: the socket goes to the temporary folder", () => {
  expect(socketPath().startsWith(temporary + sep)).toBe(true);
});

test("a socket another user listens on, in a directory of theirs, is sent nothing: the CLI says why and runs the call itself", async () => {
  await squat({ directory: NOBODY, socket: NOBODY });
  const run = await cli(["greet:say", "--who", "Ada"]);
  expect(squatter!.connections).toBe(0);
  expect(run.stdout).not.toContain(FORGED);
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toEqual({ response: { text: "Hello, Ada!", mood: null, tags: [] } });
  expect(run.stderr).toContain(`greet:say: not sent to the running server: the directory ${dirname(socketPath())} belongs to user ${NOBODY}`);
});

test("another user's socket in this user's directory, or this user's directory open to others, is refused too", async () => {
  await squat({ directory: 0, socket: NOBODY });
  const foreignSocket = await cli(["greet:say", "--who", "Ada"]);
  expect(foreignSocket.stderr).toContain(`not sent to the running server: the socket ${socketPath()} belongs to user ${NOBODY}`);
  expect(foreignSocket.stdout).not.toContain(FORGED);
  chownSync(socketPath(), 0, 0);
  chmodSync(dirname(socketPath()), 0o755);
  const openDirectory = await cli(["greet:say", "--who", "Ada"]);
  expect(openDirectory.stderr).toContain(`not sent to the running server: the directory ${dirname(socketPath())} is open to other users (mode 755)`);
  expect(openDirectory.stdout).not.toContain(FORGED);
  expect(squatter!.connections).toBe(0);
});

test("a server that finds another user's directory where its socket goes opens none, and says why", async () => {
  await squat({ directory: NOBODY, socket: NOBODY });
  const server = await HeraldProcess.start(appDir, { ...development, LOG_LEVEL: "info" });
  try {
    expect(squatter!.connections).toBe(0);
    const warning = server.logs.find((line) => typeof line.msg === "string" && line.msg.startsWith("cli-socket: not taking action commands"));
    expect(warning?.msg).toContain(`belongs to user ${NOBODY}`);
  } finally {
    await server.stop();
  }
}, HOOK_TIMEOUT);

test("the server's own socket: in a directory only its user can enter, usable by its user only, and the CLI runs through it", async () => {
  const server = await HeraldProcess.start(appDir, { ...development, LOG_LEVEL: "info" });
  try {
    const path = socketPath();
    const directory = statSync(dirname(path));
    expect({ uid: directory.uid, mode: directory.mode & 0o777 }).toEqual({ uid: process.getuid!(), mode: 0o700 });
    const socket = statSync(path);
    expect({ uid: socket.uid, mode: socket.mode & 0o777 }).toEqual({ uid: process.getuid!(), mode: 0o600 });
    const run = await herald(["greet:say", "--who", "Ada", "--verbose"], { cwd: appDir, env: development });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`), through ${path}`);
    expect(run.stderr).toMatch(/greet:say: run by the app's running server \(process \d+\)/);
  } finally {
    await server.stop();
  }
}, HOOK_TIMEOUT);
