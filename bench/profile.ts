import { busyMs, IDLE, readProfiles, STARTUP, type ProfileTimes } from "./lib/cpu-profiles";

/**
 * Reads the profiles `npm run bench -- --profile` wrote (a folder per subject) and says where each
 * server's time went, by category; given a second folder, what the first spends beyond it.
 *
 *   npm run bench:profile -- <folder> [<baseline folder>] [--per=<calls>[,<baseline calls>]]
 *
 * Figures are per call (request, message, job) where the subject's folder holds the counts its
 * processes wrote (`--profile` has every subject count); `--per` gives the counts instead.
 */
interface Subject {
  path: string;
  times: ProfileTimes;
  calls?: number;
}

function parse(argv: readonly string[]): Subject[] {
  const per = argv.find((arg) => arg.startsWith("--per="))?.slice("--per=".length).split(",").map(Number);
  const paths = argv.filter((arg) => !arg.startsWith("--"));
  if (paths.length < 1 || paths.length > 2) throw new Error("usage: npm run bench:profile -- <folder> [<baseline folder>] [--per=<calls>[,<baseline calls>]]");
  if (per?.some((calls) => !Number.isFinite(calls) || calls <= 0)) throw new Error("--per takes positive counts");
  return paths.map((path, index) => {
    const times = readProfiles(path);
    const calls = per?.[index] ?? per?.[0] ?? times.calls;
    return { path, times, ...(calls ? { calls } : {}) };
  });
}

function amount(subject: Subject, ms: number): string {
  return subject.calls ? `${((ms * 1000) / subject.calls).toFixed(2)} µs` : `${ms.toFixed(0)} ms`;
}

function share(subject: Subject, ms: number): string {
  return `${((100 * ms) / busyMs(subject.times)).toFixed(1)}%`;
}

function byCategory(subjects: Subject[]): void {
  const categories = new Set(subjects.flatMap((subject) => [...subject.times.categories.keys()]));
  categories.delete(IDLE);
  const ms = (subject: Subject, category: string) => subject.times.categories.get(category) ?? 0;
  const rows = [...categories].sort((a, b) => ms(subjects[0]!, b) - ms(subjects[0]!, a));
  console.log(`busy time, idle and ${STARTUP} left out of the shares`);
  for (const subject of subjects) console.log(`  ${subject.path}: ${subject.times.files} profile(s), busy ${amount(subject, busyMs(subject.times))}`);
  for (const category of rows) {
    const cells = subjects.map((subject) => `${amount(subject, ms(subject, category)).padStart(11)} ${(category === STARTUP ? "" : share(subject, ms(subject, category))).padStart(6)}`);
    const difference = subjects.length === 2 && subjects.every((subject) => subject.calls) ? ` ${signed(((ms(subjects[0]!, category) * 1000) / subjects[0]!.calls!) - ((ms(subjects[1]!, category) * 1000) / subjects[1]!.calls!))} µs` : "";
    console.log(`${cells.join("  ")}${difference}  ${category}`);
  }
}

function signed(value: number): string {
  return `${value >= 0 ? "+" : ""}${value.toFixed(2)}`.padStart(7);
}

/** The functions whose self time differs most between the two, per call where counts are given. */
function byFunction([subject, baseline]: [Subject, Subject], count = 30): void {
  const scale = (of: Subject) => (of.calls ? 1000 / of.calls : 1);
  const names = new Set([...subject.times.functions.keys(), ...baseline.times.functions.keys()]);
  const rows = [...names]
    .map((name) => ({ name, difference: (subject.times.functions.get(name) ?? 0) * scale(subject) - (baseline.times.functions.get(name) ?? 0) * scale(baseline) }))
    .filter(({ name }) => !name.startsWith("(idle)"))
    .sort((a, b) => Math.abs(b.difference) - Math.abs(a.difference))
    .slice(0, count);
  console.log(`\nself time, first minus second (${subject.calls && baseline.calls ? "µs a call" : "ms"}), the ${count} largest differences`);
  for (const { name, difference } of rows) console.log(`${signed(difference)}  ${name}`);
}

const subjects = parse(process.argv.slice(2));
byCategory(subjects);
if (subjects.length === 2) byFunction([subjects[0]!, subjects[1]!]);
