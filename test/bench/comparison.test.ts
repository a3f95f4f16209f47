import { compare, ratiosPerRound } from "../../bench/lib/comparison";
import { formatRatioSpread, formatSpread, verdict } from "../../bench/lib/format";
import type { Column } from "../../bench/lib/results";
import { rowsOf, type Sample } from "../../bench/lib/rounds";
import { majorOf } from "../../bench/lib/subject-node";

const COLUMNS: Column[] = [
  { key: "rps", title: "req/s", digits: 0 },
  { key: "p99", title: "p99 ms", digits: 2 },
];

const SUBJECTS = [
  { subject: "herald", label: "Herald" },
  { subject: "node", label: "raw node:http" },
];

/** Three rounds in which the machine slows down in round 2 for both subjects alike. */
function rows(herald: Sample[], node: Sample[]) {
  return rowsOf(SUBJECTS, new Map([["herald", herald], ["node", node]]), COLUMNS);
}

const HERALD = [
  { rps: 800, p99: 2 },
  { rps: 400, p99: 4 },
  { rps: 900, p99: 2.2 },
];
const NODE = [
  { rps: 1000, p99: 1.6 },
  { rps: 500, p99: 2 },
  { rps: 1000, p99: 1.6 },
];

describe("a row of a subject's rounds", () => {
  it("keeps every round of every column, with its median, lowest and highest", () => {
    const [herald] = rows(HERALD, NODE);
    expect(herald).toEqual({
      subject: "herald",
      label: "Herald",
      values: { rps: 800, p99: 2.2 },
      min: { rps: 400, p99: 2 },
      max: { rps: 900, p99: 4 },
      rounds: { rps: [800, 400, 900], p99: [2, 4, 2.2] },
    });
  });
});

describe("a comparison of Herald with a baseline", () => {
  it("divides round i by round i and reports the median ratio with the lowest and highest", () => {
    const comparison = compare(rows(HERALD, NODE), "herald", "node", "rps", "higher", 0.75);
    expect(comparison.rounds).toEqual([0.8, 0.8, 0.9]);
    expect(comparison.ratio).toEqual({ median: 0.8, min: 0.8, max: 0.9 });
    expect(formatRatioSpread(comparison)).toBe("0.80× (0.80–0.90)");
  });

  it("judges a higher-is-better target on the median ratio", () => {
    expect(compare(rows(HERALD, NODE), "herald", "node", "rps", "higher", 0.8).met).toBe(true);
    // The best round reaches 0.9, the median does not: missed.
    expect(compare(rows(HERALD, NODE), "herald", "node", "rps", "higher", 0.85).met).toBe(false);
  });

  it("judges a lower-is-better target on the median ratio", () => {
    const comparison = compare(rows(HERALD, NODE), "herald", "node", "p99", "lower", 1.5);
    expect(comparison.rounds.map((ratio) => Number(ratio.toFixed(3)))).toEqual([1.25, 2, 1.375]);
    expect(comparison.ratio.median).toBeCloseTo(1.375);
    expect(comparison.met).toBe(true);
    expect(compare(rows(HERALD, NODE), "herald", "node", "p99", "lower", 1.3).met).toBe(false);
    expect([verdict(true), verdict(false), verdict(undefined)]).toEqual(["met", "missed", ""]);
  });

  it("has no verdict without a target", () => {
    const comparison = compare(rows(HERALD, NODE), "herald", "node", "rps", "higher");
    expect(comparison).not.toHaveProperty("target");
    expect(comparison).not.toHaveProperty("met");
  });

  it("leaves out a round either side did not measure, and misses a target it cannot judge", () => {
    expect(ratiosPerRound([1, 2, Number.NaN], [2, 0, 4])).toEqual([0.5, Number.NaN, Number.NaN]);
    const unmeasured = compare(rows([{ rps: Number.NaN, p99: 1 }], [{ rps: 10, p99: 1 }]), "herald", "node", "rps", "higher", 0.5);
    expect(unmeasured.ratio.median).toBeNaN();
    expect(unmeasured.met).toBe(false);
  });
});

describe("the report's numbers", () => {
  it("shows the spread only when there was more than one round", () => {
    expect(formatSpread({ median: 12588.4, min: 12400, max: 12701 }, 3, 0)).toBe("12,588 (12,400–12,701)");
    expect(formatSpread({ median: 1.234, min: 1.234, max: 1.234 }, 1, 2)).toBe("1.23");
    const single = compare(rows([HERALD[0]!], [NODE[0]!]), "herald", "node", "rps", "higher");
    expect(formatRatioSpread(single)).toBe("0.80×");
  });

  it("names a Node.js version by its major", () => {
    expect([majorOf("v24.21.0"), majorOf("v22.23.3")]).toEqual([24, 22]);
  });
});
