import { execFile, spawn } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { waitFor } from "herald/testing";
import repoJestConfig from "../../jest.config";

export const REPO_ROOT = join(__dirname, "../..");

/**
 * Scratch space inside the repository (git-ignored), so that an app made there resolves
 * `herald`, `zod`, jest and typescript from the repository's node_modules as a linked install would.
 */
const SCRATCH_ROOT = join(REPO_ROOT, "test/.tmp-cli");

/** `name` makes the folder's path longer where a test needs a long path to an app. */
export function makeScratchDir(name = "run-"): string {
  mkdirSync(SCRATCH_ROOT, { recursive: true });
  return mkdtempSync(join(SCRATCH_ROOT, name));
}

export function removeScratchDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Copies a fixture app to `<scratch>/app`: the same depth as test/fixtures/apps/<name>, so its tsconfig `extends` still resolves. */
export function copyFixtureApp(name: string, scratchDir: string): string {
  const appDir = join(scratchDir, "app");
  cpSync(join(REPO_ROOT, "test/fixtures/apps", name), appDir, { recursive: true });
  return appDir;
}

/**
 * What `npm install` does in an app made by `herald new --herald file:<repo>`: a symlink to the
 * package and its bin, and one to the checkout's TypeORM, which the app depends on. The other
 * dependencies resolve from the repository's node_modules above the scratch folder; Jest too, but
 * an app with the database names its file below its own node_modules in `npm test`.
 */
export function linkHerald(appDir: string): void {
  mkdirSync(join(appDir, "node_modules/.bin"), { recursive: true });
  symlinkSync(REPO_ROOT, join(appDir, "node_modules/herald"), "dir");
  symlinkSync(join(REPO_ROOT, "node_modules/typeorm"), join(appDir, "node_modules/typeorm"), "dir");
  symlinkSync(join(REPO_ROOT, "node_modules/jest"), join(appDir, "node_modules/jest"), "dir");
  symlinkSync("../herald/dist/cli-entry.js", join(appDir, "node_modules/.bin/herald"));
  chmodSync(join(REPO_ROOT, "dist/cli-entry.js"), 0o755);
}

/**
 * Every file under `dir`, relative, sorted, without node_modules. Walked by hand: a recursive
 * readdir on Node 22 and 24 follows symbolic links, and an app's node_modules/herald links back
 * to this repository, the app's own folder included.
 */
export function listFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== "node_modules") walk(join(folder, entry.name));
      else if (entry.isFile()) files.push(relative(dir, join(folder, entry.name)));
    }
  };
  walk(dir);
  return files.sort();
}

export interface ProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment for a nested tool run: without the summary file the CI reads, which a nested
 * Jest would otherwise overwrite with its own counts.
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.HERALD_TEST_SUMMARY;
  return env;
}

/** Runs a program to completion (bounded by `timeout`). */
export function run(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeout: number }): Promise<ProcessRun> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, env: childEnv(options.env), timeout: options.timeout, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** `tsc --noEmit` on a project, with the repository's TypeScript. */
export function typecheck(projectDir: string): Promise<ProcessRun> {
  return run(process.execPath, [require.resolve("typescript/bin/tsc"), "--noEmit", "-p", projectDir], {
    cwd: projectDir,
    timeout: 240_000,
  });
}

/**
 * Runs Jest over the tests under `roots` with the repository's own config (ts-jest, `herald`
 * mapped to src), minus its global setup and reporters; returns Jest's JSON report.
 */
export async function runJest(roots: string[]): Promise<{ run: ProcessRun; report: JestReport | undefined }> {
  const { globalSetup: _build, reporters: _reporters, ...config } = repoJestConfig;
  const nested = { ...config, rootDir: REPO_ROOT, roots };
  // The report goes to a file: the apps under test may log on stdout, beside Jest's --json.
  const reportDir = mkdtempSync(join(tmpdir(), "herald-jest-report-"));
  const reportFile = join(reportDir, "report.json");
  try {
    const result = await run(
      process.execPath,
      [require.resolve("jest/bin/jest"), "--config", JSON.stringify(nested), "--json", "--outputFile", reportFile, "--ci"],
      { cwd: roots[0]!, timeout: 240_000 },
    );
    let report: JestReport | undefined;
    try {
      report = JSON.parse(readFileSync(reportFile, "utf8")) as JestReport;
    } catch {
      report = undefined;
    }
    return { run: result, report };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

export interface JestReport {
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  numTotalTestSuites: number;
  testResults: { name: string; status: string; message: string }[];
}

/**
 * `npm start` (or another script: `dev`) in an app folder (development, JSON logs, a free port),
 * resolved once its "server started" line names the URL. `stop` ends the whole process group: npm runs the server in a
 * child shell and does not pass a signal on to it.
 */
export async function npmStart(appDir: string, script = "start", env: NodeJS.ProcessEnv = {}): Promise<{ url: string; stop(): Promise<void>; output(): string }> {
  const server = spawn("npm", ["run", script], {
    cwd: appDir,
    env: childEnv({ PORT: "0", LOG_FORMAT: "json", LOG_LEVEL: "info", NODE_ENV: "development", ...env }),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const stop = async () => {
    process.kill(-server.pid!, "SIGTERM");
    await exited;
  };
  let output = "";
  server.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let url: string | undefined;
  try {
    await waitFor(
      () => {
        const started = output.split("\n").find((line) => line.includes('"server started"'));
        url = started ? (JSON.parse(started) as { url: string }).url : undefined;
        return url !== undefined;
      },
      { timeout: 90_000, interval: 100 },
    );
  } catch (error) {
    await stop();
    throw new Error(`npm run ${script} did not serve: ${(error as Error).message}\n${output}`);
  }
  return { url: url!, stop, output: () => output };
}
