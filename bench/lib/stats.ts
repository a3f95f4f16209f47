/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A value over the rounds: their median, and the lowest and the highest round's value. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The spread of the finite values: a round that measured nothing (NaN) does not widen it. */
export function spreadOf(values: readonly number[]): Spread {
  const finite = values.filter(Number.isFinite);
  if (!finite.length) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite) };
}

/** The nearest-rank percentile of already sorted values, `p` in 0..100. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (!sorted.length) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** The items rotated left by `shift`: round r starts with a different subject. */
export function rotated<T>(items: readonly T[], shift: number): T[] {
  const at = items.length ? shift % items.length : 0;
  return [...items.slice(at), ...items.slice(0, at)];
}
