import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ErrorType, TypedError } from "../core/errors";

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(lockFile: string): number {
  try {
    return Number(readFileSync(lockFile, "utf8").trim());
  } catch {
    return Number.NaN;
  }
}

/**
 * Claims `dir` for this process with a `<dir>.lock` file holding its pid; returns the release.
 * PGlite does not lock its data directory, and two processes writing one directory corrupt it.
 * A lock left by a process that no longer runs is taken over.
 */
export function lockDirectory(dir: string): () => void {
  const lockFile = `${dir}.lock`;
  mkdirSync(dirname(lockFile), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    // Linking a complete file into place is atomic: no one ever reads a lock without its pid.
    const candidate = `${lockFile}.${process.pid}`;
    writeFileSync(candidate, String(process.pid));
    try {
      linkSync(candidate, lockFile);
      return () => {
        if (readOwner(lockFile) === process.pid) rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readOwner(lockFile);
      if (isRunning(owner)) {
        throw new TypedError({
          message:
            `The embedded database ${dir} is in use by process ${owner}. PGlite serves one process at a time: ` +
            "stop that process, or set DATABASE_URL to share a PostgreSQL server between processes",
          type: ErrorType.SERVER_INITIALIZATION,
        });
      }
      rmSync(lockFile, { force: true });
    } finally {
      rmSync(candidate, { force: true });
    }
  }
  throw new TypedError({ message: `Could not claim the lock file ${lockFile}`, type: ErrorType.SERVER_INITIALIZATION });
}
