import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { minify } from "@swc/core";
import { writeGeneratedApp, generatedActionName } from "../lib/generated-app";
import { runToExit } from "../lib/processes";
import { compare } from "../lib/comparison";
import { check, emptyResult, type Column } from "../lib/results";
import { alternate, rowsOf, type Subject } from "../lib/rounds";
import type { Scenario } from "../lib/scenario";
import { subjectNode } from "../lib/subject-node";
import { heraldEnv, HERALD_CLI, REPO_ROOT } from "../lib/subjects";

const COLUMNS: Column[] = [
  { key: "ms", title: "wall ms", digits: 0 },
  { key: "peakMb", title: "peak RSS, MB", digits: 1 },
];

const MB = 1024;
const TSC = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
const MAX_RSS = join(REPO_ROOT, "bench/lib/max-rss.cjs");

interface ClientSubject extends Subject {
  args: string[];
}

/** A file of an app's frontend, calling three of its actions and narrowing an error. */
function clientUse(actions: number): string {
  const [first, middle, last] = [1, Math.ceil(actions / 2), actions].map(generatedActionName);
  return `import { createClient } from "herald/client";
import type { AppActions } from "./herald-client";

const client = createClient<AppActions>({ url: "http://127.0.0.1:8080" });

export async function use(): Promise<number> {
  const first = await client.call("${first}", { id: 1 });
  const last = await client.call("${last}", { id: 2, label: "x" });
  try {
    await client.call("${middle}", { id: 3 });
  } catch (error) {
    const failure = client.errorOf("${middle}", error);
    if (failure?.type === "CONNECTION_RATE_LIMITED") return failure.value.retryAfter;
  }
  return first === last ? 1 : 0;
}
`;
}

function tsconfig(file: string): string {
  const compilerOptions = { target: "ES2022", module: "node16", moduleResolution: "node16", lib: ["ES2022", "DOM"], strict: true, noEmit: true, skipLibCheck: true, types: [] };
  return `${JSON.stringify({ compilerOptions, files: [file] }, null, 2)}\n`;
}

/** herald/client's browser modules, minified by SWC and gzipped together: what a page downloads. */
async function clientBytes(): Promise<{ minified: number; gzipped: number }> {
  const folder = join(REPO_ROOT, "dist/client/esm");
  const files = readdirSync(folder).filter((file) => file.endsWith(".js"));
  const minified = await Promise.all(files.map(async (file) => (await minify(readFileSync(join(folder, file), "utf8"), { compress: true, mangle: true, module: true })).code));
  const joined = minified.join("\n");
  return { minified: Buffer.byteLength(joined), gzipped: gzipSync(joined, { level: 9 }).length };
}

/**
 * herald/client on the app of generated actions: writing its type module (alone, and as part of
 * `herald build`, which also writes the OpenAPI and compile caches), and type-checking a file
 * that uses it against the same file without the client (what an editor does on each change);
 * and the client's size in a browser.
 */
export const clientScenario: Scenario = {
  id: "client",
  title: "Typed client",
  async run({ settings, log, scratchDir }) {
    const result = emptyResult(this.id, this.title, settings.client);
    const appDir = join(scratchDir, `client-${settings.client.actions}`);
    writeGeneratedApp(appDir, settings.client.actions);
    writeFileSync(join(appDir, "use-client.ts"), clientUse(settings.client.actions));
    writeFileSync(join(appDir, "baseline.ts"), "export async function use(): Promise<number> {\n  return 1;\n}\n");
    writeFileSync(join(appDir, "tsconfig.client.json"), tsconfig("use-client.ts"));
    writeFileSync(join(appDir, "tsconfig.baseline.json"), tsconfig("baseline.ts"));
    const subjects: ClientSubject[] = [
      { subject: "generate", label: "herald generate client-types", args: ["-r", MAX_RSS, HERALD_CLI, "generate", "client-types", "-q"] },
      { subject: "build", label: "herald build (caches and client types)", args: ["-r", MAX_RSS, HERALD_CLI, "build", "-q"] },
      { subject: "tsc-client", label: "tsc, a file using the client", args: ["-r", MAX_RSS, TSC, "-p", "tsconfig.client.json"] },
      { subject: "tsc-baseline", label: "tsc, the same file without it", args: ["-r", MAX_RSS, TSC, "-p", "tsconfig.baseline.json"] },
    ];
    const samples = await alternate(
      subjects,
      settings.client.runs,
      async (subject) => {
        const run = await runToExit({ label: subject.label, command: subjectNode.command, args: subject.args, cwd: appDir, env: heraldEnv() }, 180_000);
        if (run.code !== 0) throw new Error(`${subject.label} exited with ${run.code}: ${run.stdout.slice(0, 600)}${run.stderr.slice(-600)}`);
        const peak = /max-rss-kib=(\d+)\s*$/.exec(run.stderr);
        return { ms: run.ms, peakMb: peak ? Number(peak[1]) / MB : Number.NaN };
      },
      log,
    );
    result.columns = COLUMNS;
    result.rows = rowsOf(subjects, samples, COLUMNS);
    result.comparisons = [compare(result.rows, "tsc-client", "tsc-baseline", "ms", "lower")];
    const bytes = await clientBytes();
    const tsc = result.rows.find((row) => row.subject === "tsc-client")!.values.ms!;
    result.checks = [check("herald/client, minified and gzipped", bytes.gzipped / 1024, "kB", 10), check("tsc of a file using the client", tsc, "ms", 3000)];
    result.notes.push(
      `${settings.client.actions} generated actions; median of ${settings.client.runs}, alternating; tsc --noEmit of one file (skipLibCheck, as editors check); herald/client is ${(bytes.minified / 1024).toFixed(1)} kB minified (SWC), ${(bytes.gzipped / 1024).toFixed(1)} kB gzipped`,
    );
    return result;
  },
};
