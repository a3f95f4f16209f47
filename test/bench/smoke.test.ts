import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchReport } from "../../bench/lib/results";

const REPO_ROOT = join(__dirname, "../..");
const SCENARIOS = ["http", "http-hello", "websocket", "tasks", "processes", "boot", "start", "cli", "memory", "client"];

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
      http: ["herald", "herald-traced", "node", "fastify", "express", "hono", "nest"],
      "http-hello": ["herald", "node", "fastify", "express", "hono", "nest"],
      websocket: ["herald", "ws"],
      tasks: ["herald", "bee-queue"],
      processes: ["one", "two"],
      boot: ["boot-10"],
      start: ["warm", "reload"],
      cli: ["help", "status", "node"],
      memory: ["herald", "ws"],
      client: ["generate", "build", "tsc-client", "tsc-baseline"],
    });
    for (const scenario of report.scenarios) {
      for (const row of scenario.rows) {
        for (const column of scenario.columns) {
          expect(row.rounds[column.key]).toHaveLength(1);
          expect([row.min[column.key], row.max[column.key]]).toEqual([row.values[column.key], row.values[column.key]]);
          expect(Number.isFinite(row.values[column.key])).toBe(true);
        }
      }
      for (const comparison of scenario.comparisons) {
        expect(comparison.rounds).toHaveLength(1);
        const valueOf = (subject: string) => scenario.rows.find((row) => row.subject === subject)?.values[comparison.metric];
        // /proc counts CPU time in 10 ms ticks: a subject that needs less over a smoke round reads 0,
        // and no ratio can be taken of it; every value above 0 makes a finite ratio.
        const measured = [comparison.herald, comparison.baseline].every((subject) => (valueOf(subject) ?? 0) > 0);
        if (measured) expect(Number.isFinite(comparison.ratio.median)).toBe(true);
        else expect(comparison.metric).toMatch(/cpu/i);
        expect(comparison.ratio.min).toEqual(comparison.ratio.median);
        expect(comparison.ratio.max).toEqual(comparison.ratio.median);
      }
    }
  });

  it("sets the targets on the median ratios and judges each", () => {
    const targets = report.scenarios.flatMap((scenario) =>
      scenario.comparisons
        .filter((comparison) => comparison.target !== undefined)
        .map((comparison) => [scenario.id, comparison.baseline, comparison.metric, comparison.target]),
    );
    expect(targets).toEqual([
      ["http", "node", "rps", 0.75],
      ["http", "fastify", "rps", 1],
      ["http", "express", "rps", 1.3],
      ["http", "nest", "rps", 1.5],
      ["http", "node", "p99", 1.5],
      ["websocket", "ws", "mps", 0.95],
      ["websocket", "ws", "p99", 1.5],
      ["tasks", "bee-queue", "jps", 0.9],
      ["memory", "ws", "perConnection", 1.15],
      ["memory", "ws", "heapPerConnection", 1.15],
    ]);
    for (const comparison of report.scenarios.flatMap((scenario) => scenario.comparisons)) {
      expect(typeof comparison.met).toBe(comparison.target === undefined ? "undefined" : "boolean");
    }
  });

  it("compares Herald with every baseline of the HTTP scenarios, Hono among them", () => {
    const compared = (id: string) =>
      report.scenarios.find((scenario) => scenario.id === id)!.comparisons.map((comparison) => [comparison.herald, comparison.baseline, comparison.metric]);
    expect(compared("http")).toContainEqual(["herald", "hono", "rps"]);
    expect(compared("http-hello")).toEqual([
      ["herald", "node", "rps"],
      ["herald", "fastify", "rps"],
      ["herald", "express", "rps"],
      ["herald", "hono", "rps"],
      ["herald", "nest", "rps"],
      ["herald", "node", "p99"],
      ["herald", "node", "cpuUs"],
      ["herald", "fastify", "cpuUs"],
    ]);
    expect(report.scenarios.find((scenario) => scenario.id === "http-hello")!.settings).toMatchObject({ path: "/api/bench/hello" });
  });

  it("describes the machine it ran on, with the subjects' Node.js", () => {
    expect(report.machine).toEqual({
      cpuModel: expect.any(String),
      nproc: expect.any(Number),
      node: process.version,
      harnessNode: process.version,
      platform: expect.any(String),
      memoryGiB: expect.any(Number),
    });
  });

  it("prints the table and writes the chart and the Markdown tables", () => {
    expect(run.stdout).toContain("Herald benchmark (smoke)");
    expect(run.stdout).toMatch(/Herald ÷ raw Express 5 \(req\/s\): \d+\.\d\d×  target ≥ 1\.30×  (met|missed)/);
    expect(run.stdout).toMatch(/Herald ÷ Fastify 5 \(req\/s\): \d+\.\d\d×/);
    expect(run.stdout).toMatch(/Herald ÷ Hono 4 \(@hono\/node-server\) \(req\/s\): \d+\.\d\d×/);
    expect(run.stdout).toContain("HTTP hello world");
    expect(run.stdout).toMatch(/Herald ÷ raw node:http \(p99 ms\): \d+\.\d\d×  target ≤ 1\.50×  (met|missed)/);
    const svg = readFileSync(join(outDir, "latest.svg"), "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("HTTP action, req/s");
    expect(svg).toMatch(/Herald ÷ raw Express 5 = \d+\.\d\d×/);
    const markdown = readFileSync(join(outDir, "latest.md"), "utf8");
    expect(markdown).toMatch(/\| HTTP action \| Herald ÷ raw Express 5 \(req\/s\) \| \d+\.\d\d× \| ≥ 1\.30× \| (met|missed) \|/);
    expect(markdown).toMatch(/\| HTTP hello world \| Herald ÷ Fastify 5 \(req\/s\) \| \d+\.\d\d× \| /);
    expect(markdown).toMatch(/^Run: \d{4}-\d\d-\d\dT.*\nMachine: .+, `nproc` \d+, .+ GiB, Node\.js v\d+\.\d+\.\d+, \w+ \w+\.$/m);
  });
});
