import type { Machine } from "./machine";
import type { Spread } from "./stats";

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
  /** The lowest round's value, by column key. */
  min: Record<string, number>;
  /** The highest round's value, by column key. */
  max: Record<string, number>;
  /** Every round's value, by column key, in the order the rounds ran: round i of every subject ran in the same pass. */
  rounds: Record<string, number[]>;
}

/**
 * Herald ÷ baseline on one metric, with its target where one is set. The ratio is taken per
 * round (Herald's round i over the baseline's round i, measured back to back), so a slow spell of
 * the machine divides out instead of landing on one side of a ratio of medians.
 */
export interface Comparison {
  herald: string;
  baseline: string;
  metric: string;
  better: Better;
  /** The median of the per-round ratios (judged against the target) and the lowest and highest round's. */
  ratio: Spread;
  /** Every round's ratio, in the order the rounds ran. */
  rounds: number[];
  /** higher: median ratio ≥ target; lower: median ratio ≤ target. */
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

export function check(label: string, value: number, unit: string, limit: number): Check {
  return { label, value, unit, limit, met: value < limit };
}

/** The label a row of a scenario is shown with. */
export function labelOf(result: ScenarioResult, subject: string): string {
  return result.rows.find((row) => row.subject === subject)?.label ?? subject;
}
