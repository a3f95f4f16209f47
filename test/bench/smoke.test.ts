import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchReport } from "../../bench/lib/results";

const REPO_ROOT = join(__dirname, "../..");
const SCENARIOS = ["http", "websocket", "tasks", "boot", "cli", "memory", "client"];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run bench:smoke`, minus the build (Jest's global setup has built dist/), writing to `outDir`. */
function runSmoke(outDir: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // A nested tool must not overwrite the summary file the CI reads.
  delete env.HERALD_TEST_SUMMARY;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["-r", "@swc-node/register", "bench/run.ts", "--smoke", "--require-services", `--out=${outDir}`],
      { cwd: REPO_ROOT, env, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe("the benchmark harness, in smoke mode", () => {
  let outDir: string;
  let run: Run;
  let report: BenchReport;

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), "herald-bench-smoke-"));
    run = await runSmoke(outDir);
    report = JSON.parse(readFileSync(join(outDir, "latest.json"), "utf8")) as BenchReport;
  }, 250_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("runs every scenario, Herald against its baselines, and exits 0", () => {
    expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ code: 0, stderr: "" });
    expect(report.mode).toBe("smoke");
    expect(report.scenarios.map((scenario) => [scenario.id, scenario.status])).toEqual(SCENARIOS.map((id) => [id, "ran"]));
  });

  it("reports a median row per subject and a ratio for every comparison", () => {
    const subjects = Object.fromEntries(report.scenarios.map((scenario) => [scenario.id, scenario.rows.map((row) => row.subject)]));
    expect(subjects).toEqual({
      http: ["herald", "express", "node", "nest"],
      websocket: ["herald", "ws"],
      tasks: ["herald", "bee-queue"],
      boot: ["boot-10"],
      cli: ["help", "status", "node"],
      memory: ["herald", "ws"],
      client: ["generate", "build", "tsc-client", "tsc-baseline"],
    });
    for (const scenario of report.scenarios) {
      for (const row of scenario.rows) {
        expect(row.rounds).toHaveLength(1);
        for (const column of scenario.columns) expect(Number.isFinite(row.values[column.key])).toBe(true);
      }
      for (const comparison of scenario.comparisons) expect(Number.isFinite(comparison.ratio)).toBe(true);
    }
    const http = report.scenarios.find((scenario) => scenario.id === "http")!;
    expect(http.comparisons.map((comparison) => [comparison.baseline, comparison.target])).toEqual(
      expect.arrayContaining([
        ["express", 0.85],
        ["nest", 1],
      ]),
    );
  });

  it("describes the machine it ran on", () => {
    expect(report.machine).toEqual({
      cpuModel: expect.any(String),
      nproc: expect.any(Number),
      node: process.version,
      platform: expect.any(String),
      memoryGiB: expect.any(Number),
    });
  });

  it("prints the table and writes the chart and the Markdown tables", () => {
    expect(run.stdout).toContain("Herald benchmark (smoke)");
    expect(run.stdout).toMatch(/Herald ÷ raw Express 5 \(req\/s\): \d+\.\d\d×/);
    const svg = readFileSync(join(outDir, "latest.svg"), "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("HTTP action, req/s");
    expect(svg).toMatch(/Herald ÷ raw Express 5 = \d+\.\d\d×/);
    expect(readFileSync(join(outDir, "latest.md"), "utf8")).toContain("| HTTP action | Herald ÷ raw Express 5 (req/s) |");
  });
});
