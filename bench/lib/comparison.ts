import type { Better, Comparison, Row } from "./results";
import { spreadOf } from "./stats";

/** Herald's value over the baseline's, round by round; NaN for a round either side did not measure. */
export function ratiosPerRound(herald: readonly number[], baseline: readonly number[]): number[] {
  return herald.map((value, round) => {
    const reference = baseline[round] ?? Number.NaN;
    return Number.isFinite(value) && Number.isFinite(reference) && reference !== 0 ? value / reference : Number.NaN;
  });
}

/** Whether a ratio meets its target; a ratio that could not be measured does not. */
export function meets(ratio: number, better: Better, target: number): boolean {
  return better === "higher" ? ratio >= target : ratio <= target;
}

/** Herald ÷ baseline on `metric`, per round; judged on the median ratio when a target is given. */
export function compare(rows: readonly Row[], herald: string, baseline: string, metric: string, better: Better, target?: number): Comparison {
  const roundsOf = (subject: string) => rows.find((row) => row.subject === subject)?.rounds[metric] ?? [];
  const rounds = ratiosPerRound(roundsOf(herald), roundsOf(baseline));
  const comparison: Comparison = { herald, baseline, metric, better, ratio: spreadOf(rounds), rounds };
  if (target !== undefined) {
    comparison.target = target;
    comparison.met = meets(comparison.ratio.median, better, target);
  }
  return comparison;
}
