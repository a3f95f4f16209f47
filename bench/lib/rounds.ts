import type { Column, Row } from "./results";
import { rotated, spreadOf } from "./stats";

export interface Subject {
  subject: string;
  label: string;
}

export type Sample = Record<string, number>;

/**
 * Runs `measure` for every subject in every round, alternating them and starting each round
 * with a different one, so a slow spell of the machine does not land on one subject only.
 */
export async function alternate<S extends Subject>(
  subjects: readonly S[],
  rounds: number,
  measure: (subject: S, round: number) => Promise<Sample>,
  log: (line: string) => void,
): Promise<Map<string, Sample[]>> {
  const samples = new Map<string, Sample[]>(subjects.map((subject) => [subject.subject, []]));
  for (let round = 0; round < rounds; round++) {
    for (const subject of rotated(subjects, round)) {
      const sample = await measure(subject, round);
      samples.get(subject.subject)!.push(sample);
      log(`  round ${round + 1}/${rounds} ${subject.label}: ${Object.entries(sample).map(([key, value]) => `${key}=${value.toFixed(2)}`).join(" ")}`);
    }
  }
  return samples;
}

/** One row per subject: every column's value in each round, and its median, lowest and highest. */
export function rowsOf(subjects: readonly Subject[], samples: Map<string, Sample[]>, columns: readonly Column[]): Row[] {
  return subjects.map(({ subject, label }) => {
    const taken = samples.get(subject) ?? [];
    const rounds = Object.fromEntries(columns.map((column) => [column.key, taken.map((sample) => sample[column.key] ?? Number.NaN)]));
    const spreads = columns.map((column) => [column.key, spreadOf(rounds[column.key]!)] as const);
    return {
      subject,
      label,
      values: Object.fromEntries(spreads.map(([key, spread]) => [key, spread.median])),
      min: Object.fromEntries(spreads.map(([key, spread]) => [key, spread.min])),
      max: Object.fromEntries(spreads.map(([key, spread]) => [key, spread.max])),
      rounds,
    };
  });
}
