import { lstatSync, mkdirSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { isMainThread } from "node:worker_threads";

/**
 * The CLI socket runs the app's actions for whoever connects, and the CLI believes whatever
 * answers on it: both hold only while no other local user can reach, create or replace it. So it
 * lives in a directory of its own that only its user can enter, and both sides check that before
 * they trust it; a check that fails names why.
 */

/** Without user ids (Windows), there is no owner to check. */
const ownUid = (): number | undefined => process.getuid?.();

function refusalOf(what: string, stats: Stats, uid: number): string | undefined {
  if (stats.uid !== uid) return `${what} belongs to user ${stats.uid}, not to this user (${uid})`;
  const mode = stats.mode & 0o777;
  if ((mode & 0o077) !== 0) return `${what} is open to other users (mode ${mode.toString(8)})`;
  return undefined;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function directoryRefusal(directory: string, uid: number): string | undefined {
  const stats = lstatOrUndefined(directory);
  if (!stats) return undefined;
  // lstat: a symbolic link planted in a shared folder would otherwise lead wherever its owner likes.
  if (!stats.isDirectory()) return `${directory} is not a directory`;
  return refusalOf(`the directory ${directory}`, stats, uid);
}

/**
 * Why the CLI must not send a call to the socket at `socketPath`, or undefined when it may (it is
 * this user's, in this user's private directory) or when there is nothing there to send to.
 */
export function cliSocketRefusal(socketPath: string): string | undefined {
  const uid = ownUid();
  if (uid === undefined) return undefined;
  const refused = directoryRefusal(dirname(socketPath), uid);
  if (refused) return refused;
  const stats = lstatOrUndefined(socketPath);
  if (!stats) return undefined;
  if (!stats.isSocket()) return `${socketPath} is not a socket`;
  return refusalOf(`the socket ${socketPath}`, stats, uid);
}

/**
 * Creates the socket's directory, readable, writable and enterable by this user only, or finds it
 * so; returns why it cannot be used when it is someone else's or open to others. Such a directory
 * is left as it is: it is not this process's to remove.
 */
export function prepareCliSocketDirectory(directory: string): string | undefined {
  mkdirSync(dirname(directory), { recursive: true });
  try {
    mkdirSync(directory, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const uid = ownUid();
  return uid === undefined ? undefined : directoryRefusal(directory, uid);
}

/**
 * Runs `bind` (which must bind the socket synchronously, as net's `listen` on a path does) under
 * a umask that leaves the socket readable and writable by its user only, so that it never exists
 * with a wider mode. A worker thread cannot change the process's umask; there the private
 * directory alone keeps others out.
 */
export function withOwnerOnlyUmask<T>(bind: () => T): T {
  if (!isMainThread) return bind();
  const previous = process.umask(0o177);
  try {
    return bind();
  } finally {
    process.umask(previous);
  }
}
