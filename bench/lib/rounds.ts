import type { Column, Row } from "./results";
import { median, rotated } from "./stats";

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

/** One row per subject: the median of each column over the rounds, and the main metric's rounds. */
export function rowsOf(subjects: readonly Subject[], samples: Map<string, Sample[]>, columns: readonly Column[], main: string): Row[] {
  return subjects.map(({ subject, label }) => {
    const taken = samples.get(subject) ?? [];
    const values = Object.fromEntries(columns.map((column) => [column.key, median(taken.map((sample) => sample[column.key]!))]));
    return { subject, label, values, rounds: taken.map((sample) => sample[main]!) };
  });
}
