import { spawnSync } from "node:child_process";

/** Long enough for any git on any disk; a git that hangs (a broken hook or credential helper) does not hold up `herald new`. */
const GIT_TIMEOUT_MS = 30_000;

function git(args: string[], cwd: string): { ran: boolean; status: number | null } {
  const result = spawnSync("git", args, { cwd, stdio: "ignore", timeout: GIT_TIMEOUT_MS });
  return { ran: result.error === undefined, status: result.status };
}

/**
 * `git init` in a new app's folder, where git is on PATH and the folder is not inside a git work
 * tree already (an app made inside a monorepo belongs to the monorepo's repository). A missing or
 * failing git is no reason to fail `herald new`, whose files are written by then: answers whether
 * a repository was made.
 */
export function initGitRepository(dir: string): boolean {
  const inside = git(["rev-parse", "--is-inside-work-tree"], dir);
  // Not run (no git on PATH), or exit code 0: inside a repository already (or a .git folder itself).
  if (!inside.ran || inside.status === 0) return false;
  const init = git(["init", "--quiet"], dir);
  return init.ran && init.status === 0;
}
