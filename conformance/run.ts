/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios)
 * against Herald: serves the fixture app of Herald actions (test/fixtures/apps/mcp-conformance)
 * with the built CLI, then runs the suite once per protocol revision, each against its own
 * expected-failures file. Exits non-zero when a check fails that its file does not list, or when
 * one it lists now passes. `npm run conformance`; docs/mcp.md says what the files list and why.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const ROOT = join(__dirname, "..");
const APP = join(ROOT, "test/fixtures/apps/mcp-conformance");
const SUITE = require.resolve("@modelcontextprotocol/conformance/dist/index.js", { paths: [ROOT] });
/** Each revision's checks, and how long one scenario may take: server-stateless waits for notifications it then finds absent. */
const REVISIONS: [revision: string, timeoutMs: number][] = [
  ["2025-11-25", 5_000],
  ["2026-07-28", 30_000],
];

function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [join(ROOT, "dist/cli-entry.js"), "start"], {
    cwd: APP,
    env: { ...process.env, NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", LOG_FORMAT: "json", LOG_LEVEL: "info", REDIS_URL: "", DATABASE_URL: "", TASKS_RETRIES: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === "server started" && entry.url) resolve({ url: entry.url, stop: () => child.kill("SIGTERM") });
      } catch {
        // Not a log line of the server's.
      }
    });
    child.once("exit", (code) => reject(new Error(`the fixture app exited with ${code} before it started`)));
  });
}

function runToExit(command: string, args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code));
  });
}

async function main(): Promise<number> {
  const server = await startServer();
  const results = mkdtempSync(join(tmpdir(), "herald-conformance-"));
  let failed = 0;
  try {
    for (const [revision, timeoutMs] of REVISIONS) {
      console.log(`\n== MCP conformance, server scenarios, ${revision} (${server.url}/mcp)`);
      // Run without blocking this process: the server's log comes through a pipe this process reads,
      // and a pipe left unread fills, and then blocks the server at its next log line.
      const status = await runToExit(process.execPath, [
        SUITE,
        "server",
        "--url",
        `${server.url}/mcp`,
        "--requirements",
        revision,
        "--expected-failures",
        join(__dirname, `expected-failures.${revision}.yml`),
        "--timeout",
        String(timeoutMs),
        "-o",
        join(results, revision),
      ]);
      if (status !== 0) failed++;
      console.log(`== ${revision}: ${status === 0 ? "as expected" : `exit ${status}`}`);
    }
  } finally {
    server.stop();
  }
  console.log(`\nconformance: ${REVISIONS.length - failed} of ${REVISIONS.length} revisions as expected; each check's result is under ${results}`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
