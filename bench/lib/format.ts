import type { Comparison } from "./results";
import type { Spread } from "./stats";

export function formatNumber(value: number | undefined, digits: number): string {
  if (value === undefined || !Number.isFinite(value)) return "—";
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * "12,588 (12,400–12,700)": the median, then the lowest and highest round. One round has no
 * spread to show, so a smoke run prints the value alone.
 */
export function formatSpread(spread: Spread, rounds: number, digits: number): string {
  const median = formatNumber(spread.median, digits);
  if (rounds < 2 || !Number.isFinite(spread.min)) return median;
  return `${median} (${formatNumber(spread.min, digits)}–${formatNumber(spread.max, digits)})`;
}

export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : "—";
}

/** "0.42× (0.40–0.45)": the median ratio over the rounds, then the lowest and highest round's. */
export function formatRatioSpread(comparison: Comparison): string {
  const { median, min, max } = comparison.ratio;
  if (comparison.rounds.length < 2 || !Number.isFinite(min)) return formatRatio(median);
  return `${formatRatio(median)} (${min.toFixed(2)}–${max.toFixed(2)})`;
}

export function verdict(met: boolean | undefined): string {
  if (met === undefined) return "";
  return met ? "met" : "missed";
}

export function targetText(comparison: Comparison): string {
  if (comparison.target === undefined) return "";
  return `${comparison.better === "higher" ? "≥" : "≤"} ${comparison.target.toFixed(2)}×`;
}
