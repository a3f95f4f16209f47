import { runToExit } from "../lib/processes";
import { compare } from "../lib/comparison";
import { check, emptyResult, type Column } from "../lib/results";
import { alternate, rowsOf, type Subject } from "../lib/rounds";
import type { Scenario } from "../lib/scenario";
import { subjectNode } from "../lib/subject-node";
import { BENCH_APP, heraldEnv, HERALD_CLI } from "../lib/subjects";

interface CliSubject extends Subject {
  args: string[];
  /** Fails the run when the command did not do its job. */
  verify(stdout: string): void;
}

const SUBJECTS: CliSubject[] = [
  {
    subject: "help",
    label: "herald --help",
    args: [HERALD_CLI, "--help"],
    verify: (stdout) => {
      if (!stdout.includes("herald")) throw new Error(`herald --help printed no usage: ${stdout.slice(0, 200)}`);
    },
  },
  {
    subject: "status",
    label: "herald status -q",
    args: [HERALD_CLI, "status", "-q"],
    verify: (stdout) => {
      const printed = JSON.parse(stdout) as { response?: { healthy?: unknown } };
      if (printed.response?.healthy !== true) throw new Error(`herald status -q: ${stdout.slice(0, 300)}`);
    },
  },
  { subject: "node", label: "node -e 0", args: ["-e", "0"], verify: () => undefined },
];

const COLUMNS: Column[] = [{ key: "ms", title: "wall ms", digits: 0 }];

/** Cold starts of the `herald` executable in the bench app's folder, against Node doing nothing. */
export const cliScenario: Scenario = {
  id: "cli",
  title: "CLI cold start",
  async run({ settings, log }) {
    const result = emptyResult(this.id, this.title, settings.cli);
    const samples = await alternate(
      SUBJECTS,
      settings.cli.runs,
      async (subject) => {
        const run = await runToExit({ label: subject.label, command: subjectNode.command, args: subject.args, cwd: BENCH_APP, env: heraldEnv() }, 60_000);
        if (run.code !== 0) throw new Error(`${subject.label} exited with ${run.code}: ${run.stderr.trim() || run.stdout.slice(0, 300)}`);
        subject.verify(run.stdout);
        return { ms: run.ms };
      },
      log,
    );
    result.columns = COLUMNS;
    result.rows = rowsOf(SUBJECTS, samples, COLUMNS);
    result.comparisons = [compare(result.rows, "help", "node", "ms", "lower"), compare(result.rows, "status", "node", "ms", "lower")];
    result.checks = [check("herald --help", result.rows[0]!.values.ms!, "ms", 400)];
    result.notes.push(`median of ${settings.cli.runs} runs each, alternating, from spawn to exit; herald status -q loads the bench app in CLI mode`);
    return result;
  },
};
