import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { SAMPLE_APP } from "./support/app";

const ROOT = join(__dirname, "../..");
const SCRIPT = join(__dirname, "support/embedded-app.ts");
const workDir = mkdtempSync(join(tmpdir(), "herald-pglite-"));
const dataDir = join(workDir, "pglite");
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function nodeArgs(input: object): string[] {
  return ["--enable-source-maps", "-r", "@swc-node/register", SCRIPT, JSON.stringify({ appDir: SAMPLE_APP, dataDir, ...input })];
}

const childEnv = { ...process.env, SWC_NODE_PROJECT: join(SAMPLE_APP, "tsconfig.json"), DATABASE_URL: "" };

/** Runs the embedded app once, in its own process, and returns what it printed. */
interface Call {
  action: string;
  params?: object;
  /** Run as the CLI would; otherwise on the shared signed-in web connection (see embedded-app.ts). */
  via?: "cli";
}

function runEmbedded(calls: Call[], concurrent: Call[] = [], options: { afterReload?: Call[]; dataDir?: string } = {}): any {
  const child = spawnSync(process.execPath, nodeArgs({ calls, concurrent, ...options }), { cwd: ROOT, env: childEnv, encoding: "utf8", timeout: HOOK_TIMEOUT });
  const line = child.stdout.split("\n").find((text) => text.startsWith("RESULT "));
  if (!line) throw new Error(`The embedded app printed no result (exit ${child.status}):\n${child.stderr}`);
  return JSON.parse(line.slice("RESULT ".length));
}

describe("the sample app on embedded PGlite (no DATABASE_URL)", () => {
  test(
    "migrates at boot, serves the actions, and keeps its data across restarts",
    () => {
      const first = runEmbedded([
        { action: "user:create", params: { name: "Ada", email: "ada@example.com", password: "correct horse" } },
        { action: "user:create", params: { name: "Ada", email: "ADA@example.com", password: "correct horse" } },
        { action: "session:create", params: { email: "ada@example.com", password: "correct horse" } },
        { action: "message:create", params: { body: "first" } },
        { action: "message:create", params: { body: "second" } },
        { action: "messages:cleanup", params: { age: 60_000 }, via: "cli" },
      ], [
        // At once, on the one PGlite session, a conflict among them.
        { action: "user:create", params: { name: "Grace", email: "grace@example.com", password: "correct horse" } },
        { action: "user:create", params: { name: "Ada again", email: "ada@example.com", password: "correct horse" } },
        { action: "user:create", params: { name: "Edsger", email: "edsger@example.com", password: "correct horse" } },
        { action: "message:create", params: { body: "third" } },
        { action: "messages:list", params: {} },
      ]);
      expect(first.failure).toBeUndefined();
      expect(first.concurrentResults.map((result: { status: number }) => result.status)).toEqual([200, 409, 200, 200, 200]);
      expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
      expect(first.migrations).toEqual([{ name: "InitialSchema1763769600000" }]);
      expect(first.health.services.database).toMatchObject({ healthy: true });
      const [created, duplicate, signedIn, posted, , cleanup] = first.results;
      expect(created).toMatchObject({ status: 200, response: { user: { id: 1, name: "Ada", email: "ada@example.com" } } });
      expect(created.response.user).not.toHaveProperty("password_hash");
      expect(duplicate).toMatchObject({ status: 409, error: { type: "CONNECTION_CONFLICT" } });
      expect(signedIn).toMatchObject({ status: 200, response: { user: { id: 1 } } });
      expect(posted).toMatchObject({ status: 200, response: { message: { id: 1, body: "first", user_id: 1 } } });
      expect(cleanup).toEqual({ status: 200, response: { messagesDeleted: 0 } });
      expect(existsSync(`${dataDir}.lock`)).toBe(false);

      const second = runEmbedded([
        { action: "messages:list", params: { limit: 1 } },
        { action: "session:create", params: { email: "ada@example.com", password: "correct horse" } },
        { action: "user:view", params: { user: 1 } },
        { action: "messages:cleanup", params: { age: 0 }, via: "cli" },
      ]);
      expect(second.migrations).toEqual([{ name: "InitialSchema1763769600000" }]);
      const [listed, , viewed, cleaned] = second.results;
      expect(listed.response).toEqual({
        messages: [{ id: 3, body: "third", user_name: "Ada" }],
        pagination: { page: 1, limit: 1, total: 3, pages: 3 },
      });
      expect(viewed.response).toMatchObject({ user: { id: 1, name: "Ada", email: "ada@example.com" } });
      expect(cleaned.response).toEqual({ messagesDeleted: 3 });
    },
    2 * HOOK_TIMEOUT,
  );

  test(
    "takes over a stale lock, and refuses a data directory that a running process holds",
    async () => {
      // A lock left by a process that is gone (this one exits at once) does not block a boot.
      const deadPid = spawnSync(process.execPath, ["-p", "process.pid"], { encoding: "utf8" }).stdout.trim();
      writeFileSync(`${dataDir}.lock`, deadPid);

      const holder = spawn(process.execPath, nodeArgs({ hold: true }), { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      holder.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<void>((resolve) => holder.once("exit", () => resolve()));
      try {
        await waitFor(() => output.includes("READY") || holder.exitCode !== null, { timeout: HOOK_TIMEOUT });
        expect(output).toContain("READY");
        expect(readFileSync(`${dataDir}.lock`, "utf8")).toBe(String(holder.pid));

        const refused = runEmbedded([]);
        expect(refused.failure).toEqual({
          type: "SERVER_INITIALIZATION",
          message: expect.stringContaining(`The embedded database ${dataDir} is in use by process ${holder.pid}`),
        });
      } finally {
        holder.kill("SIGTERM");
        await exited;
      }
      expect(existsSync(`${dataDir}.lock`)).toBe(false);
    },
    3 * HOOK_TIMEOUT,
  );

  test(
    "a reload in place, as herald dev does on a change, keeps the database open for the new code",
    () => {
      // In memory, the data lives only as long as the database is open.
      const run = runEmbedded(
        [{ action: "user:create", params: { name: "Kept", email: "kept@example.com", password: "correct horse" } }],
        [],
        { dataDir: "memory://", afterReload: [{ action: "session:create", params: { email: "kept@example.com", password: "correct horse" } }] },
      );
      expect(run.failure).toBeUndefined();
      expect(run.results[0]).toMatchObject({ status: 200 });
      expect(run.reloadResults[0]).toMatchObject({ status: 200, response: { user: { email: "kept@example.com" } } });
      expect(run.health.services.database).toMatchObject({ healthy: true });
    },
    HOOK_TIMEOUT,
  );
});
