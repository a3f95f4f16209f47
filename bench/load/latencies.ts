import { percentileOfSorted } from "../lib/stats";

/** Round-trip times in milliseconds, kept as measured (fractions included), and their percentiles. */
export class Latencies {
  private readonly values: number[] = [];

  add(ms: number): void {
    this.values.push(ms);
  }

  get count(): number {
    return this.values.length;
  }

  percentiles(): { p50Ms: number; p99Ms: number } {
    const sorted = Float64Array.from(this.values).sort();
    return { p50Ms: percentileOfSorted(sorted, 50), p99Ms: percentileOfSorted(sorted, 99) };
  }
}
