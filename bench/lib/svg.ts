import type { BenchReport } from "./results";
import { labelOf } from "./results";
import { formatRatioSpread } from "./format";

interface Bar {
  label: string;
  /** Where the bar ends on the scale; 1.0 is the reference. */
  value: number;
  /** The lowest and highest round, drawn as a whisker across the bar's end. */
  range?: { low: number; high: number };
  /** Written after the bar. */
  text: string;
  target?: number;
  met?: boolean;
}

const WIDTH = 1060;
const LABEL_WIDTH = 370;
const BAR_AREA = 360;
const ROW = 26;
const COLORS = { met: "#2e7d32", missed: "#c62828", neutral: "#1565c0", grid: "#d0d0d0", text: "#222" };

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function niceMax(values: readonly number[]): number {
  const largest = Math.max(1.25, ...values.filter(Number.isFinite).map((value) => value * 1.05));
  return Math.ceil(largest * 4) / 4;
}

/** One panel of horizontal bars against a scale whose 1.0 is drawn dashed. */
function panel(title: string, subtitle: string, bars: readonly Bar[], top: number): { svg: string; height: number } {
  const max = niceMax(bars.flatMap((bar) => [bar.value, bar.target ?? 0, bar.range?.high ?? 0]));
  const x = (value: number) => LABEL_WIDTH + (Math.max(0, Math.min(value, max)) / max) * BAR_AREA;
  const parts = [
    `<text x="16" y="${top + 18}" font-size="15" font-weight="bold" fill="${COLORS.text}">${escape(title)}</text>`,
    `<text x="16" y="${top + 36}" font-size="12" fill="#555">${escape(subtitle)}</text>`,
  ];
  const chartTop = top + 50;
  const chartHeight = Math.max(1, bars.length) * ROW;
  for (let tick = 0; tick <= max + 1e-9; tick += max > 3 ? 1 : 0.25) {
    const tx = x(tick);
    const reference = Math.abs(tick - 1) < 1e-9;
    parts.push(
      `<line x1="${tx}" y1="${chartTop - 4}" x2="${tx}" y2="${chartTop + chartHeight}" stroke="${reference ? "#555" : COLORS.grid}" ${reference ? 'stroke-dasharray="4 3"' : ""}/>`,
      `<text x="${tx}" y="${chartTop + chartHeight + 14}" font-size="10" text-anchor="middle" fill="#555">${tick.toFixed(2)}</text>`,
    );
  }
  bars.forEach((bar, index) => {
    const y = chartTop + index * ROW;
    const color = bar.met === undefined ? COLORS.neutral : bar.met ? COLORS.met : COLORS.missed;
    const end = Number.isFinite(bar.value) ? x(bar.value) : LABEL_WIDTH;
    parts.push(
      `<text x="${LABEL_WIDTH - 8}" y="${y + 16}" font-size="12" text-anchor="end" fill="${COLORS.text}">${escape(bar.label)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y + 5}" width="${Math.max(0, end - LABEL_WIDTH)}" height="${ROW - 10}" fill="${color}" rx="2"/>`,
      `<text x="${LABEL_WIDTH + BAR_AREA + 14}" y="${y + 16}" font-size="11" fill="${COLORS.text}">${escape(bar.text)}</text>`,
    );
    if (bar.range && Number.isFinite(bar.range.low) && Number.isFinite(bar.range.high)) {
      const [low, high] = [x(bar.range.low), x(bar.range.high)];
      const middle = y + ROW / 2;
      parts.push(
        `<line x1="${low}" y1="${middle}" x2="${high}" y2="${middle}" stroke="#000" stroke-opacity="0.6"/>`,
        `<line x1="${low}" y1="${middle - 4}" x2="${low}" y2="${middle + 4}" stroke="#000" stroke-opacity="0.6"/>`,
        `<line x1="${high}" y1="${middle - 4}" x2="${high}" y2="${middle + 4}" stroke="#000" stroke-opacity="0.6"/>`,
      );
    }
    if (bar.target !== undefined) {
      const tx = x(bar.target);
      parts.push(`<line x1="${tx}" y1="${y + 2}" x2="${tx}" y2="${y + ROW - 2}" stroke="#000" stroke-width="2"/>`);
    }
  });
  return { svg: parts.join("\n"), height: 50 + chartHeight + 30 };
}

/**
 * The chart of bench/results/latest.svg: Herald against each baseline (bars at 1.0 match the
 * baseline, higher is better), and the absolute targets as the share of their budget used.
 */
export function svgChart(report: BenchReport): string {
  const relative: Bar[] = [];
  const budgets: Bar[] = [];
  for (const result of report.scenarios) {
    for (const comparison of result.comparisons) {
      const higher = comparison.better === "higher";
      const metric = result.columns.find((column) => column.key === comparison.metric)?.title ?? comparison.metric;
      const { median, min, max } = comparison.ratio;
      relative.push({
        label: `${result.title}, ${metric}`,
        value: higher ? median : 1 / median,
        ...(comparison.rounds.length > 1 ? { range: higher ? { low: min, high: max } : { low: 1 / max, high: 1 / min } } : {}),
        text: `${labelOf(result, comparison.herald)} ÷ ${labelOf(result, comparison.baseline)} = ${formatRatioSpread(comparison)}`,
        ...(comparison.target !== undefined ? { target: higher ? comparison.target : 1 / comparison.target } : {}),
        ...(comparison.met !== undefined ? { met: comparison.met } : {}),
      });
    }
    for (const item of result.checks) {
      budgets.push({
        label: `${result.title}: ${item.label}`,
        value: item.value / item.limit,
        text: `${Math.round(item.value)} ${item.unit} of ${item.limit} ${item.unit}`,
        met: item.met,
      });
    }
  }
  const { machine } = report;
  const header = `Herald benchmark, ${report.startedAt.slice(0, 10)} — ${machine.cpuModel}, nproc ${machine.nproc}, node ${machine.node}`;
  const first = panel(
    "Herald relative to each baseline",
    "1.00 = as good as the baseline, higher is better: the throughput ratio, or baseline ÷ Herald for CPU, time, latency and memory. Median of the per-round ratios; whisker: lowest–highest round; black tick: target.",
    relative,
    30,
  );
  const second = budgets.length
    ? panel("Absolute targets", "Share of the budget used; below 1.00 meets the target.", budgets, 30 + first.height)
    : { svg: "", height: 0 };
  const height = 30 + first.height + second.height + 10;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="16" y="20" font-size="12" fill="#555">${escape(header)}</text>`,
    first.svg,
    second.svg,
    "</svg>",
    "",
  ].join("\n");
}
