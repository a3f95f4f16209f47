import { appendFileSync, cpSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, runToExit, ServerProcess } from "../lib/processes";
import { check, emptyResult, type Column } from "../lib/results";
import { rowsOf, type Subject } from "../lib/rounds";
import type { Scenario } from "../lib/scenario";
import { REPO_ROOT } from "../lib/subjects";

const COLUMNS: Column[] = [{ key: "ms", title: "npm start to first 200, ms", digits: 0 }];

/** What `npm start` needs of a checkout: the rest (tests, docs, bench) plays no part in it. */
const CHECKOUT = ["package.json", "tsconfig.json", "src", "sample-app"];

/**
 * A copy of the checkout with this one's node_modules; with `built`, this checkout's build too,
 * its times kept so that the incremental build finds it current.
 */
function copyCheckout(dir: string, built: boolean): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const skipped = (source: string) => /[/\\](\.data|\.herald)$/.test(source);
  for (const entry of [...CHECKOUT, ...(built ? ["dist"] : [])]) {
    cpSync(join(REPO_ROOT, entry), join(dir, entry), { recursive: true, preserveTimestamps: true, filter: (source) => !skipped(source) });
  }
  symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
}

/**
 * `npm start` in `dir`, timed from its start to the sample app's first 200 on /api/status: its
 * `prestart` build through npm, then its `start` command run here rather than under npm, which
 * does not pass the stop signal on to the server it started.
 */
async function timeNpmStart(dir: string, label: string): Promise<number> {
  const port = await freePort();
  const env = { ...process.env, PATH: `${join(dir, "node_modules/.bin")}:${process.env.PATH}`, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", NODE_ENV: "development" };
  const started = performance.now();
  const build = await runToExit({ label: "npm run build", command: "npm", args: ["run", "build", "--silent"], cwd: dir, env }, 300_000);
  if (build.code !== 0) throw new Error(`npm run build failed (${build.code}): ${build.stderr.trim() || build.stdout}`);
  const server = new ServerProcess({ label, command: join(dir, "node_modules/.bin/node"), args: ["--enable-source-maps", "dist/cli-entry.js", "start"], cwd: dir, env });
  try {
    await server.waitForHttp(`http://127.0.0.1:${port}/api/status`, 180_000);
    return performance.now() - started;
  } finally {
    await server.stop();
  }
}

async function statusUptime(port: number): Promise<number | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/status`, { signal: AbortSignal.timeout(2000) });
    return response.status === 200 ? ((await response.json()) as { uptime: number }).uptime : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `herald dev` in `dir`: once it serves, an action file of the sample app changes, timed until
 * the server reloaded for it answers (its uptime starts over).
 */
async function timeDevReload(dir: string, label: string): Promise<number> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", NODE_ENV: "development" };
  const dev = new ServerProcess({ label, command: join(dir, "node_modules/.bin/node"), args: ["dist/cli-entry.js", "dev"], cwd: dir, env });
  try {
    await dev.waitForHttp(`http://127.0.0.1:${port}/api/status`, 120_000);
    let last = (await statusUptime(port)) ?? 0;
    const started = performance.now();
    appendFileSync(join(dir, "sample-app/actions/messages.ts"), `\n// changed at ${Date.now()}\n`);
    for (;;) {
      // The old server's uptime only grows; the first answer with a smaller one is the new server's.
      const uptime = await statusUptime(port);
      if (uptime !== undefined && uptime < last) return performance.now() - started;
      if (uptime !== undefined) last = uptime;
      if (performance.now() - started > 120_000) throw new Error("herald dev did not serve the change within 120 s");
      await sleep(10);
    }
  } finally {
    await dev.stop();
  }
}

/**
 * The sample app as a new user starts it: `npm start` in a fresh checkout (a full build, and the
 * embedded database created and migrated), then again with nothing changed (the incremental
 * build's check, the database opened). Smoke mode times only a start on a copied build.
 */
export const startScenario: Scenario = {
  id: "start",
  title: "npm start",
  async run({ settings, log, scratchDir, mode }) {
    const rounds = settings.boot.rounds;
    const result = emptyResult(this.id, this.title, { rounds });
    const dir = join(scratchDir, "checkout");
    const reload: Subject = { subject: "reload", label: "herald dev, an action changed" };
    const starts: Subject[] = mode === "smoke" ? [{ subject: "warm", label: "nothing changed" }] : [{ subject: "first", label: "first start" }, { subject: "warm", label: "nothing changed" }];
    const subjects = [...starts, reload];
    const samples = new Map<string, { ms: number }[]>(subjects.map((subject) => [subject.subject, []]));
    for (let round = 0; round < rounds; round++) {
      copyCheckout(dir, mode === "smoke");
      for (const subject of subjects) {
        const ms = subject === reload ? await timeDevReload(dir, subject.label) : await timeNpmStart(dir, subject.label);
        samples.get(subject.subject)!.push({ ms });
        log(`  round ${round + 1}/${rounds} ${subject.label}: ms=${ms.toFixed(0)}`);
      }
    }
    result.columns = COLUMNS;
    result.rows = rowsOf(subjects, samples, COLUMNS);
    const warm = result.rows.find((row) => row.subject === "warm");
    const reloaded = result.rows.find((row) => row.subject === "reload");
    if (warm && reloaded) {
      result.checks = [check("npm start, nothing changed", warm.values.ms!, "ms", 5000), check("herald dev, reload after a change", reloaded.values.ms!, "ms", 1500)];
    }
    result.notes.push(
      "the sample app on the embedded database: from `npm run build` (npm start's prestart) to the first 200 from /api/status of the server its start command runs; `first` in a fresh copy of the checkout (a full build, the database created and migrated), `warm` right after it; `reload`: under `herald dev`, from changing an action file to the first answer of the reloaded server",
    );
    return result;
  },
};
