import { existsSync } from "node:fs";
import { join } from "node:path";
import { generatedRoute, writeGeneratedApp } from "../lib/generated-app";
import { freePort, runToExit, ServerProcess } from "../lib/processes";
import { check, emptyResult, type Column } from "../lib/results";
import { alternate, rowsOf, type Subject } from "../lib/rounds";
import type { Scenario } from "../lib/scenario";
import { subjectNode } from "../lib/subject-node";
import { heraldEnv, heraldSpec, HERALD_CLI } from "../lib/subjects";

interface BootSubject extends Subject {
  appDir: string;
  actions: number;
}

const COLUMNS: Column[] = [
  { key: "ms", title: "to first request, ms", digits: 0 },
  { key: "rssMb", title: "RSS, MB", digits: 1 },
  { key: "peakMb", title: "peak RSS, MB", digits: 1 },
];

const MB = 1024 ** 2;

/** `herald start` of apps with 10, 100 and 1000 generated actions, after `herald build` wrote their caches. */
export const bootScenario: Scenario = {
  id: "boot",
  title: "Boot",
  async run({ settings, log, scratchDir }) {
    const result = emptyResult(this.id, this.title, settings.boot);
    const subjects: BootSubject[] = [];
    for (const actions of settings.boot.sizes) {
      const appDir = join(scratchDir, `boot-${actions}`);
      writeGeneratedApp(appDir, actions);
      const build = await runToExit({ label: "herald build", command: subjectNode.command, args: [HERALD_CLI, "build"], cwd: appDir, env: heraldEnv() }, 120_000);
      const caches = [".herald/openapi-cache.json", ".herald/compile-cache.json"];
      if (build.code !== 0 || !caches.every((cache) => existsSync(join(appDir, cache)))) {
        throw new Error(`herald build of the ${actions}-action app failed (${build.code}): ${build.stderr.trim() || build.stdout}`);
      }
      subjects.push({ subject: `boot-${actions}`, label: `${actions} actions`, appDir, actions });
    }
    const samples = await alternate(
      subjects,
      settings.boot.rounds,
      async (subject) => {
        const port = await freePort();
        const started = performance.now();
        const server = new ServerProcess(heraldSpec(`Herald, ${subject.label}`, { appDir: subject.appDir, env: { PORT: String(port) } }));
        try {
          const lastRoute = generatedRoute(subject.actions).replace(":id", "1");
          await server.waitForHttp(`http://127.0.0.1:${port}/api${lastRoute}`, 60_000);
          const ms = performance.now() - started;
          const memory = server.memory();
          return { ms, rssMb: memory.rss / MB, peakMb: memory.peakRss / MB };
        } finally {
          await server.stop();
        }
      },
      log,
    );
    result.columns = COLUMNS;
    result.rows = rowsOf(subjects, samples, COLUMNS);
    const largest = result.rows.find((row) => row.subject === "boot-1000");
    if (largest) {
      result.checks = [check("1000 actions, boot", largest.values.ms!, "ms", 1500), check("1000 actions, RSS", largest.values.rssMb!, "MB", 200)];
    }
    result.notes.push(
      `from spawning \`herald start\` to the first 200 from the last action's route; one .ts file per action; compile cache and OpenAPI cache written by \`herald build\`; median of ${settings.boot.rounds}`,
    );
    return result;
  },
};
