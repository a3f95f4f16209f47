import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { reloadsFor, restartsFor } from "../../src/toolchain/dev-command";
import { HERALD_BIN } from "../support/cli";
import { childEnv, copyFixtureApp, makeScratchDir, removeScratchDir } from "../support/scratch-apps";
import { freePort } from "../support/free-port";

/** `herald dev` on a copy of the CLI fixture: served, and served again when its code changes. */
let scratch: string;
let appDir: string;
let base: string;
let dev: ChildProcess;
let stderr = "";

function writeAction(file: string, body: string): void {
  writeFileSync(
    join(appDir, "actions", file),
    `import { Action, HTTP_METHOD, Web } from "herald";\n\n@Action({ name: "dev:probe" })\n@Web({ route: "/probe", method: HTTP_METHOD.GET })\nexport class DevProbe {\n  async run() {\n    ${body}\n  }\n}\n`,
  );
}

/** A version the probe answers, with the process that served it and the resource the app keeps. */
function writeProbe(version: number, extra = ""): void {
  writeAction("probe.ts", `${extra}return { version: ${version}, pid: process.pid, kept: (globalThis as any).devKept };`);
}

/**
 * An initializer that opens a resource once per process and keeps it across herald dev's
 * reloads: it counts what it opened and closed, so the test sees whether a reload kept it.
 */
const KEPT_INITIALIZER = `import { injectable, keepAcrossReload, reclaimKept, type Initializer } from "herald";

@injectable()
export class KeptResource implements Initializer {
  name = "kept-resource";
  private resource: { id: number } | undefined;

  async initialize() {
    const state = ((globalThis as any).devKept ??= { opened: 0, closed: 0, boots: 0, id: 0 });
    state.boots += 1;
    this.resource = reclaimKept<{ id: number }>("dev-test:resource") ?? { id: ++state.opened };
    state.id = this.resource.id;
  }

  async stop() {
    const state = (globalThis as any).devKept;
    if (!keepAcrossReload("dev-test:resource", this.resource, () => void (state.closed += 1))) state.closed += 1;
  }
}
`;

async function probe(): Promise<unknown> {
  try {
    const response = await fetch(`${base}/api/probe`);
    return response.status === 200 ? await response.json() : response.status;
  } catch {
    return undefined;
  }
}

type Served = { version: number; pid: number; kept: { opened: number; closed: number; boots: number; id: number } };

beforeAll(async () => {
  scratch = makeScratchDir();
  appDir = copyFixtureApp("cli", scratch);
  // The depth of test/fixtures/apps/<name>, so the repository's tsconfig is two folders up from there too.
  writeFileSync(join(appDir, "tsconfig.json"), JSON.stringify({ extends: "../../../../tsconfig.json", include: ["."] }));
  writeProbe(1);
  mkdirSync(join(appDir, "initializers"));
  writeFileSync(join(appDir, "initializers", "kept.ts"), KEPT_INITIALIZER);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dev = spawn(process.execPath, [HERALD_BIN, "dev"], {
    cwd: appDir,
    // RUST_BACKTRACE as a Rust developer's shell may set it: SWC then appends its native backtrace to a syntax error.
    env: childEnv({ NODE_ENV: "development", PORT: String(port), LOG_LEVEL: "warn", DATABASE_URL: "", REDIS_URL: "", RUST_BACKTRACE: "1" }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  dev.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await waitFor(async () => ((await probe()) as Served | undefined)?.version === 1, { timeout: 60_000, interval: 50 });
  first = (await probe()) as Served;
}, HOOK_TIMEOUT);

let first: Served;

/** Waits until the probe answers `version`, and returns what it answered. */
async function served(version: number): Promise<Served> {
  let answer: Served | undefined;
  await waitFor(async () => (answer = (await probe()) as Served | undefined)?.version === version, { timeout: 60_000, interval: 50 });
  return answer!;
}

afterAll(async () => {
  if (dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once("exit", resolve));
    dev.kill("SIGTERM");
    await exited;
  }
  removeScratchDir(scratch);
}, HOOK_TIMEOUT);

test("a change to an action is served in the same process, and what the app keeps stays open", async () => {
  writeProbe(2);
  const second = await served(2);
  expect(stderr).toContain("herald dev: actions/probe.ts changed, reloading");
  expect(second.pid).toBe(first.pid);
  // Booted again, on the resource the first boot opened: nothing opened or closed since.
  expect(second.kept).toEqual({ ...first.kept, boots: first.kept.boots + 1 });
}, 90_000);

test("a type error is shown, and the app is served anyway", async () => {
  writeProbe(3, 'const count: number = "three";\n    ');
  await served(3);
  await waitFor(() => stderr.includes("herald dev: type errors (the app is served anyway):"), { timeout: 120_000, interval: 100 });
  expect(stderr).toMatch(/actions\/probe\.ts\(\d+,\d+\): error TS2322/);
}, 180_000);

test("changed code that does not boot is reported, its code frame once; the next save that boots is served, on what the app kept", async () => {
  const before = (await probe()) as Served;
  const from = stderr.length;
  const failed = "herald dev: the changed code does not boot; fix it and save again:";
  writeAction("probe.ts", "return { version: 4 ;");
  await waitFor(() => stderr.includes(failed, from), { timeout: 60_000, interval: 50 });
  writeProbe(5);
  const fixed = await served(5);
  expect(fixed.pid).toBe(before.pid);
  expect(fixed.kept).toMatchObject({ id: before.kept.id, opened: before.kept.opened, closed: before.kept.closed });

  // The report is one write of the server's, before it took the fixed save, which herald dev announced after it.
  const reportStart = stderr.indexOf(failed, from);
  const reloading = "herald dev: actions/probe.ts changed, reloading";
  await waitFor(() => stderr.includes(reloading, reportStart), { timeout: 60_000, interval: 50 });
  const report = stderr.slice(reportStart, stderr.indexOf(reloading, reportStart));
  expect(report).toMatch(/Could not load \S*\/actions\/probe\.ts:/);
  expect(report.split("Expected ',', got ';'")).toHaveLength(2);
  expect(report.match(/\n\s*\d+ \|\s+return \{ version: 4 ;\n/g)).toHaveLength(1);
  expect(report).not.toMatch(/backtrace|Caused by|\n\s+at /i);
}, 90_000);

test("what a reload replaced is released: the old code's classes are not kept in memory", async () => {
  // Each version records a weak reference to its class when it loads; the answer, after a full
  // collection, counts those still alive. (A WeakRef read keeps its target alive until the end
  // of that turn, so none is read before the collection.)
  const counted = (version: number) =>
    writeFileSync(
      join(appDir, "actions", "probe.ts"),
      `import { Action, HTTP_METHOD, Web } from "herald";\nimport { setFlagsFromString } from "node:v8";\nimport { runInNewContext } from "node:vm";\n\n` +
        `setFlagsFromString("--expose-gc");\nconst collectGarbage = runInNewContext("gc") as () => void;\n\n` +
        `@Action({ name: "dev:probe" })\n@Web({ route: "/probe", method: HTTP_METHOD.GET })\nexport class DevProbe {\n  async run() {\n    collectGarbage();\n` +
        `    const alive = ((globalThis as any).devProbeClasses as WeakRef<object>[]).filter((ref) => ref.deref()).length;\n` +
        `    return { version: ${version}, pid: process.pid, kept: (globalThis as any).devKept, alive };\n  }\n}\n\n` +
        `((globalThis as any).devProbeClasses ??= []).push(new WeakRef(DevProbe));\n`,
    );
  for (const version of [10, 11, 12]) {
    counted(version);
    await served(version);
  }
  expect(((await probe()) as Served & { alive: number }).alive).toBe(1);
}, 90_000);

/** The probe at `version`, written the way an editor's atomic save (or `sed -i`, or `mv`) writes it: a new file renamed over the old. */
function renameProbeOver(version: number): void {
  const temporary = join(appDir, "actions", `.probe.ts.${version}.tmp`);
  writeFileSync(
    temporary,
    `import { Action, HTTP_METHOD, Web } from "herald";\n\n@Action({ name: "dev:probe" })\n@Web({ route: "/probe", method: HTTP_METHOD.GET })\nexport class DevProbe {\n  async run() {\n    return { version: ${version}, pid: process.pid, kept: (globalThis as any).devKept };\n  }\n}\n`,
  );
  renameSync(temporary, join(appDir, "actions", "probe.ts"));
}

test("a file renamed over its original (an atomic save) is served, and so is every save of it after that, in place or renamed over", async () => {
  renameProbeOver(20);
  await served(20);
  renameProbeOver(21);
  await served(21);
  writeProbe(22);
  await served(22);
  renameProbeOver(23);
  await served(23);
}, 90_000);

test("a file deleted, then created again, is served", async () => {
  rmSync(join(appDir, "actions", "probe.ts"));
  await waitFor(async () => (await probe()) === 404, { timeout: 60_000, interval: 50 });
  writeProbe(24);
  await served(24);
}, 90_000);

test("many files written at once, as a branch checkout writes them, are all served", async () => {
  const extra = (name: string, answer: number) =>
    writeFileSync(
      join(appDir, "actions", `${name}.ts`),
      `import { Action, HTTP_METHOD, Web } from "herald";\n\n@Action({ name: "dev:${name}" })\n@Web({ route: "/${name}", method: HTTP_METHOD.GET })\nexport class Dev${name} {\n  async run() {\n    return { answer: ${answer} };\n  }\n}\n`,
    );
  writeProbe(25);
  for (const name of ["alpha", "beta", "gamma"]) extra(name, 25);
  await served(25);
  for (const name of ["alpha", "beta", "gamma"]) {
    await waitFor(async () => (await fetch(`${base}/api/${name}`)).status === 200, { timeout: 60_000, interval: 50 });
    expect(await (await fetch(`${base}/api/${name}`)).json()).toEqual({ answer: 25 });
  }
}, 90_000);

test("an action in a folder made after herald dev started is served, and so is its next save", async () => {
  const folder = join(appDir, "actions", "added");
  mkdirSync(folder);
  const write = (answer: number) =>
    writeFileSync(
      join(folder, "late.ts"),
      `import { Action, HTTP_METHOD, Web } from "herald";\n\n@Action({ name: "dev:late" })\n@Web({ route: "/late", method: HTTP_METHOD.GET })\nexport class DevLate {\n  async run() {\n    return { answer: ${answer} };\n  }\n}\n`,
    );
  const lateAnswer = async () => {
    const response = await fetch(`${base}/api/late`);
    return response.status === 200 ? ((await response.json()) as { answer: number }).answer : undefined;
  };
  write(1);
  await waitFor(async () => (await lateAnswer()) === 1, { timeout: 60_000, interval: 50 });
  write(2);
  await waitFor(async () => (await lateAnswer()) === 2, { timeout: 60_000, interval: 50 });
}, 90_000);

test("a change to the app's config starts a new process", async () => {
  const before = (await probe()) as Served;
  writeFileSync(join(appDir, "herald.config.ts"), `import { defineConfig } from "herald";\n\n// changed\nexport default defineConfig({ actions: "actions" });\n`);
  await waitFor(async () => {
    const answer = (await probe()) as Served | undefined;
    return answer !== undefined && answer.pid !== before.pid;
  }, { timeout: 60_000, interval: 50 });
  expect(stderr).toContain("herald dev: herald.config.ts changed, starting the server again");
  expect(((await probe()) as Served).kept).toMatchObject({ id: 1, opened: 1, boots: 1 });
}, 90_000);

test("stopping herald dev stops the server it runs", async () => {
  const exited = new Promise<number | null>((resolve) => dev.once("exit", resolve));
  dev.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(await probe()).toBeUndefined();
});

test("what a change starts a new process for: the app's config and what decides how its modules load", () => {
  expect(["herald.config.ts", "herald.config.mjs", "package.json", "tsconfig.json", "tsconfig.build.json", ".env", ".env.development", ".env.local"].filter(restartsFor)).toHaveLength(8);
  // The env files are read once per process: a change to one starts a new one; the example is no setting.
  expect([".env", ".env.local", ".env.test"].filter(reloadsFor)).toHaveLength(3);
  expect([".env.example"].filter(reloadsFor)).toEqual([]);
  expect(["actions/user.ts", "initializers/db.ts", "lib/config.json", "actions/herald.config.ts"].filter(restartsFor)).toEqual([]);
});

test("what a change reloads the app for: its code, not its data, caches, dependencies, tests, lockfile or type declarations", () => {
  expect(["actions/user.ts", "initializers/db.ts", "herald.config.ts", "lib/services/mail.js", "config/feature.json"].filter(reloadsFor)).toHaveLength(5);
  expect(
    [
      "node_modules/x/index.js",
      ".herald/compile-cache.json",
      ".data/pglite/base",
      "dist/index.js",
      "test/users.test.ts",
      "actions/users.test.ts",
      "README.md",
      "package-lock.json",
      "herald-client.d.ts",
      "types/globals.d.ts",
    ].filter(reloadsFor),
  ).toEqual([]);
});
