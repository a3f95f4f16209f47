import type { Machine } from "./machine";

export type Better = "higher" | "lower";

export interface Column {
  key: string;
  title: string;
  /** Decimal places shown. */
  digits: number;
}

export interface Row {
  subject: string;
  label: string;
  /** The medians over rounds, by column key. */
  values: Record<string, number>;
  /** Every round's value of the scenario's main metric, in the order they ran. */
  rounds: number[];
}

/** Herald ÷ baseline on one metric, with the target where it sets one. */
export interface Comparison {
  herald: string;
  baseline: string;
  metric: string;
  better: Better;
  ratio: number;
  /** higher: ratio ≥ target; lower: ratio ≤ target. */
  target?: number;
  met?: boolean;
}

/** An absolute target, such as boot time under 1.5 s. */
export interface Check {
  label: string;
  value: number;
  unit: string;
  limit: number;
  met: boolean;
}

export interface ScenarioResult {
  id: string;
  title: string;
  status: "ran" | "skipped" | "failed";
  /** Why it was skipped or failed, or what to know when reading it. */
  notes: string[];
  settings: Record<string, unknown>;
  columns: Column[];
  rows: Row[];
  comparisons: Comparison[];
  checks: Check[];
}

export interface BenchReport {
  mode: "full" | "smoke";
  startedAt: string;
  durationSeconds: number;
  machine: Machine;
  scenarios: ScenarioResult[];
}

export function emptyResult(id: string, title: string, settings: Record<string, unknown>): ScenarioResult {
  return { id, title, status: "ran", notes: [], settings, columns: [], rows: [], comparisons: [], checks: [] };
}

export function compare(
  rows: readonly Row[],
  herald: string,
  baseline: string,
  metric: string,
  better: Better,
  target?: number,
): Comparison {
  const heraldValue = rows.find((row) => row.subject === herald)?.values[metric] ?? Number.NaN;
  const baselineValue = rows.find((row) => row.subject === baseline)?.values[metric] ?? Number.NaN;
  const value = Number.isFinite(heraldValue) && Number.isFinite(baselineValue) && baselineValue !== 0 ? heraldValue / baselineValue : Number.NaN;
  const comparison: Comparison = { herald, baseline, metric, better, ratio: value };
  if (target !== undefined) {
    comparison.target = target;
    comparison.met = better === "higher" ? value >= target : value <= target;
  }
  return comparison;
}

export function check(label: string, value: number, unit: string, limit: number): Check {
  return { label, value, unit, limit, met: value < limit };
}

/** The label a row of a scenario is shown with. */
export function labelOf(result: ScenarioResult, subject: string): string {
  return result.rows.find((row) => row.subject === subject)?.label ?? subject;
}
