import { execFile } from "node:child_process";
import { join } from "node:path";

export const HERALD_BIN = join(__dirname, "../../dist/cli-entry.js");

/** How long one run may take before it is killed: what bounds a test of several runs, rather than the machine's speed. */
export const CLI_RUN_TIMEOUT = 60_000;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `herald` executable as a child process. */
export function herald(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [HERALD_BIN, ...args],
      { cwd: options.cwd, env: { ...process.env, NODE_ENV: "test", ...options.env }, timeout: CLI_RUN_TIMEOUT },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
