import { existsSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import type { ProcessSpec } from "./processes";
import { subjectNode } from "./subject-node";

export const REPO_ROOT = resolve(__dirname, "../..");
export const HERALD_CLI = join(REPO_ROOT, "dist/cli-entry.js");
export const BENCH_APP = join(REPO_ROOT, "bench/app");
/** Preloaded into servers whose memory is measured: SIGUSR2 runs a full GC first. */
const GC_ON_SIGNAL = join(REPO_ROOT, "bench/servers/gc-on-signal.cjs");

/** Where `--profile` writes each subject's `.cpuprofile` files: a folder per subject under it; unset, nothing is profiled. */
export const profiling: { dir?: string } = {};

/** A folder name for a subject's label: "raw Express 5" → "raw-express-5". */
export function profileFolderOf(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/** `--cpu-prof` into the subject's own folder when profiling, so Herald's profile can be read beside its baseline's. */
function profileFlags(label: string): string[] {
  return profiling.dir ? ["--cpu-prof", `--cpu-prof-dir=${join(profiling.dir, profileFolderOf(label))}`] : [];
}

/** Where a profiled subject writes how many calls it served (bench/shared/request-counter.ts). */
function profileEnv(label: string): NodeJS.ProcessEnv {
  return profiling.dir ? { BENCH_CALLS_DIR: join(profiling.dir, profileFolderOf(label)) } : {};
}

/**
 * Another checkout of Herald, built (`npm ci && npm run build`), whose HTTP subject runs beside
 * this one's: `--herald-before=<dir>` measures a change against the build before it.
 */
export const otherBuild: { root?: string } = {};

export function useOtherBuild(path: string): void {
  const root = resolve(path);
  if (!existsSync(join(root, "dist/cli-entry.js"))) throw new Error(`--herald-before=${path}: ${root}/dist/cli-entry.js is missing: run "npm ci && npm run build" there first`);
  otherBuild.root = root;
}

/** The `--herald-before` build's subject, for a scenario that measures it beside this one's: none without the flag. */
export function otherBuildSubjects(): { subject: string; label: string; spec(port: number): ProcessSpec }[] {
  const root = otherBuild.root;
  if (!root) return [];
  return [{ subject: "herald-before", label: "Herald, --herald-before build", spec: (port) => heraldSpec("Herald (before)", { root, env: { PORT: String(port) } }) }];
}

/**
 * A clean environment: the user's REDIS_URL or LOG_LEVEL must not change what is measured.
 * Servers run as in production. The subjects' Node.js comes first on PATH, so that anything a
 * subject starts as `node` runs on the same version as the subject.
 */
function baseEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: [dirname(subjectNode.command), process.env.PATH].filter(Boolean).join(delimiter),
    HOME: process.env.HOME,
    NODE_ENV: "production",
    ...extra,
  };
}

/** Herald's settings in every scenario: production, loopback only, the request log on (JSON). */
export function heraldEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return baseEnv({
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    LOG_FORMAT: "json",
    SESSION_SECRET: "bench-only-session-secret-0123456789abcdef",
    // Every load client connects from the loopback address, thousands at once in the memory scenario.
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0",
    MAX_CONCURRENT_CALLS_PER_ADDRESS: "0",
    MAX_CONCURRENT_CALLS_PER_CONNECTION: "0",
    ...extra,
  });
}

export interface HeraldSpecOptions {
  appDir?: string;
  /** The checkout whose dist/ and bench app run; this one by default. */
  root?: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** Preload the GC hook (memory scenario). */
  gcHook?: boolean;
}

/** `herald <args>` (default `start`) in the app's folder, as a user runs it. */
export function heraldSpec(label: string, options: HeraldSpecOptions = {}): ProcessSpec {
  const preload = options.gcHook ? ["--expose-gc", "-r", GC_ON_SIGNAL] : [];
  const root = options.root ?? REPO_ROOT;
  return {
    label,
    command: subjectNode.command,
    args: [...profileFlags(label), ...preload, join(root, "dist/cli-entry.js"), ...(options.args ?? ["start"])],
    cwd: options.appDir ?? join(root, "bench/app"),
    env: heraldEnv({ ...profileEnv(label), ...options.env }),
  };
}

/** A baseline from bench/servers, compiled on load by SWC (as Herald's app files are). */
export function baselineSpec(label: string, file: string, env: NodeJS.ProcessEnv = {}, gcHook = false): ProcessSpec {
  const preload = gcHook ? ["--expose-gc", "-r", GC_ON_SIGNAL] : [];
  return {
    label,
    command: subjectNode.command,
    args: [...profileFlags(label), ...preload, "-r", "@swc-node/register", join(REPO_ROOT, "bench/servers", file)],
    cwd: REPO_ROOT,
    env: baseEnv({ ...profileEnv(label), ...env }),
  };
}
