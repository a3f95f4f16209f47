import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { reloadsFor } from "../../../src/transports/cli/dev-command";
import { HERALD_BIN } from "../../support/cli";
import { childEnv, copyFixtureApp, makeScratchDir, removeScratchDir } from "./support";

/** `herald dev` on a copy of the CLI fixture: served, and served again when its code changes. */
let scratch: string;
let appDir: string;
let base: string;
let dev: ChildProcess;
let stderr = "";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function writeAction(file: string, body: string): void {
  writeFileSync(
    join(appDir, "actions", file),
    `import { Action, HTTP_METHOD, Web } from "herald";\n\n@Action({ name: "dev:probe" })\n@Web({ route: "/probe", method: HTTP_METHOD.GET })\nexport class DevProbe {\n  async run() {\n    ${body}\n  }\n}\n`,
  );
}

async function probe(): Promise<unknown> {
  try {
    const response = await fetch(`${base}/api/probe`);
    return response.status === 200 ? await response.json() : response.status;
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  scratch = makeScratchDir();
  appDir = copyFixtureApp("cli", scratch);
  // The depth of test/fixtures/apps/<name>, so the repository's tsconfig is two folders up from there too.
  writeFileSync(join(appDir, "tsconfig.json"), JSON.stringify({ extends: "../../../../tsconfig.json", include: ["."] }));
  writeAction("probe.ts", "return { version: 1 };");
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dev = spawn(process.execPath, [HERALD_BIN, "dev"], {
    cwd: appDir,
    env: childEnv({ NODE_ENV: "development", PORT: String(port), LOG_LEVEL: "warn", DATABASE_URL: "", REDIS_URL: "" }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  dev.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await waitFor(async () => JSON.stringify(await probe()) === '{"version":1}', { timeout: 60_000, interval: 50 });
}, HOOK_TIMEOUT);

afterAll(async () => {
  if (dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once("exit", resolve));
    dev.kill("SIGTERM");
    await exited;
  }
  removeScratchDir(scratch);
}, HOOK_TIMEOUT);

test("a change to an action is served without a restart by hand", async () => {
  writeAction("probe.ts", "return { version: 2 };");
  await waitFor(async () => JSON.stringify(await probe()) === '{"version":2}', { timeout: 60_000, interval: 50 });
  expect(stderr).toContain("herald dev: actions/probe.ts changed, reloading");
}, 90_000);

test("a type error is shown, and the app is served anyway", async () => {
  writeAction("probe.ts", "const count: number = \"three\";\n    return { version: 3, count };");
  await waitFor(async () => JSON.stringify(await probe()) === '{"version":3,"count":"three"}', { timeout: 60_000, interval: 50 });
  await waitFor(() => stderr.includes("herald dev: type errors (the app is served anyway):"), { timeout: 120_000, interval: 100 });
  expect(stderr).toMatch(/actions\/probe\.ts\(\d+,\d+\): error TS2322/);
}, 180_000);

test("stopping herald dev stops the server it runs", async () => {
  const exited = new Promise<number | null>((resolve) => dev.once("exit", resolve));
  dev.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(await probe()).toBeUndefined();
});

test("what a change reloads the app for: its code, not its data, caches, dependencies or tests", () => {
  expect(["actions/user.ts", "initializers/db.ts", "herald.config.ts", "lib/services/mail.js", "config/feature.json"].filter(reloadsFor)).toHaveLength(5);
  expect(["node_modules/x/index.js", ".herald/compile-cache.json", ".data/pglite/base", "dist/index.js", "test/users.test.ts", "actions/users.test.ts", "README.md"].filter(reloadsFor)).toEqual([]);
});
