import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describeMachine } from "./lib/machine";
import { markdownReport, textReport } from "./lib/report";
import { emptyResult, type BenchReport, type ScenarioResult } from "./lib/results";
import { FULL, SMOKE, Scenario, ScenarioContext, ScenarioSkipped } from "./lib/scenario";
import { majorOf, subjectNode, useSubjectNode } from "./lib/subject-node";
import { HERALD_CLI, profiling, REPO_ROOT, useOtherBuild } from "./lib/subjects";
import { svgChart } from "./lib/svg";
import { bootScenario } from "./scenarios/boot";
import { cliScenario } from "./scenarios/cli";
import { clientScenario } from "./scenarios/client";
import { httpScenario } from "./scenarios/http";
import { httpHelloScenario } from "./scenarios/http-hello";
import { memoryScenario } from "./scenarios/memory";
import { processesScenario } from "./scenarios/processes";
import { tasksScenario } from "./scenarios/tasks";
import { startScenario } from "./scenarios/start";
import { websocketScenario } from "./scenarios/websocket";

const SCENARIOS: Scenario[] = [httpScenario, httpHelloScenario, websocketScenario, tasksScenario, processesScenario, bootScenario, startScenario, cliScenario, memoryScenario, clientScenario];

/** Past this, the scenarios not yet started are skipped: the whole run stays under 10 minutes. */
const BUDGET_SECONDS = { full: 540, smoke: 240 };

interface Options {
  smoke: boolean;
  requireServices: boolean;
  only?: string[];
  outDir: string;
  profile: boolean;
}

/**
 * Where the results go unless --out= says: one folder per Node.js major of the subjects, so runs
 * on Node 24 and Node 22 sit side by side; smoke runs under smoke/, which git ignores.
 */
function defaultOutDir(smoke: boolean): string {
  const folder = `node${majorOf(subjectNode.version)}`;
  return join(REPO_ROOT, "bench/results", ...(smoke ? ["smoke", folder] : [folder]));
}

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const smoke = argv.includes("--smoke");
  const only = value("only")?.split(",").map((id) => id.trim()).filter(Boolean);
  const unknown = only?.filter((id) => !SCENARIOS.some((scenario) => scenario.id === id));
  if (unknown?.length) throw new Error(`Unknown scenario(s) ${unknown.join(", ")}; known: ${SCENARIOS.map((s) => s.id).join(", ")}`);
  const node = value("node");
  if (node !== undefined) useSubjectNode(node);
  const before = value("herald-before");
  if (before !== undefined) useOtherBuild(before);
  return {
    smoke,
    requireServices: argv.includes("--require-services") || process.env.CI === "true",
    ...(only ? { only } : {}),
    outDir: resolve(value("out") ?? defaultOutDir(smoke)),
    profile: argv.includes("--profile"),
  };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (!existsSync(HERALD_CLI)) throw new Error(`${HERALD_CLI} is missing: run "npm run build" first (npm run bench does)`);
  const profiles = options.profile ? join(options.outDir, "profiles") : undefined;
  const mode = options.smoke ? "smoke" : "full";
  const scratchDir = mkdtempSync(join(tmpdir(), "herald-bench-"));
  const context: ScenarioContext = {
    mode,
    settings: options.smoke ? SMOKE : FULL,
    log: (line) => process.stderr.write(`${line}\n`),
    servicesRequired: options.requireServices,
    scratchDir,
  };
  if (subjectNode.command !== process.execPath) context.log(`subjects run on Node.js ${subjectNode.version}: ${subjectNode.command}`);
  const startedAt = new Date();
  const started = performance.now();
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of SCENARIOS) {
      if (options.only && !options.only.includes(scenario.id)) continue;
      const elapsed = (performance.now() - started) / 1000;
      if (elapsed > BUDGET_SECONDS[mode]) {
        const skipped = emptyResult(scenario.id, scenario.title, {});
        skipped.status = "skipped";
        skipped.notes.push(`time budget of ${BUDGET_SECONDS[mode]} s used up`);
        results.push(skipped);
        continue;
      }
      context.log(`${scenario.title} …`);
      // A folder per scenario, then per subject: "Herald" serves more than one scenario.
      if (profiles) profiling.dir = join(profiles, scenario.id);
      results.push(await runScenario(scenario, context));
    }
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }

  const report: BenchReport = {
    mode,
    startedAt: startedAt.toISOString(),
    durationSeconds: (performance.now() - started) / 1000,
    machine: describeMachine(),
    scenarios: results,
  };
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(options.outDir, "latest.svg"), svgChart(report));
  writeFileSync(join(options.outDir, "latest.md"), markdownReport(report));
  process.stdout.write(textReport(report));
  context.log(`results: ${join(options.outDir, "latest.json")}, latest.svg, latest.md`);
  return results.some((result) => result.status === "failed") ? 1 : 0;
}

async function runScenario(scenario: Scenario, context: ScenarioContext): Promise<ScenarioResult> {
  try {
    return await scenario.run(context);
  } catch (error) {
    const result = emptyResult(scenario.id, scenario.title, {});
    result.status = error instanceof ScenarioSkipped ? "skipped" : "failed";
    result.notes.push((error as Error).message);
    context.log(`  ${result.status}: ${(error as Error).message}`);
    return result;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
    process.exitCode = 1;
  },
);
