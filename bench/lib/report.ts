import type { BenchReport, Comparison, ScenarioResult } from "./results";
import { labelOf } from "./results";

function formatNumber(value: number | undefined, digits: number): string {
  if (value === undefined || !Number.isFinite(value)) return "—";
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : "—";
}

function verdict(met: boolean | undefined): string {
  if (met === undefined) return "";
  return met ? "met" : "MISSED";
}

function targetText(comparison: Comparison): string {
  if (comparison.target === undefined) return "";
  return `${comparison.better === "higher" ? "≥" : "≤"} ${comparison.target.toFixed(2)}×`;
}

function metricTitle(result: ScenarioResult, key: string): string {
  return result.columns.find((column) => column.key === key)?.title ?? key;
}

function pad(cells: string[][]): string[] {
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return cells.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ").trimEnd());
}

function scenarioHeading(result: ScenarioResult): string {
  const status = result.status === "ran" ? "" : ` [${result.status.toUpperCase()}]`;
  return `${result.title}${status}`;
}

/** The table printed on stdout. */
export function textReport(report: BenchReport): string {
  const { machine } = report;
  const lines = [
    `Herald benchmark (${report.mode}) — ${machine.cpuModel}, nproc ${machine.nproc}, node ${machine.node}, ${report.durationSeconds.toFixed(0)} s`,
  ];
  for (const result of report.scenarios) {
    lines.push("", scenarioHeading(result));
    for (const note of result.notes) lines.push(`  note: ${note}`);
    if (result.rows.length) {
      const header = ["subject", ...result.columns.map((column) => column.title)];
      const body = result.rows.map((row) => [row.label, ...result.columns.map((column) => formatNumber(row.values[column.key], column.digits))]);
      lines.push(...pad([header, ...body]).map((line) => `  ${line}`));
    }
    for (const comparison of result.comparisons) {
      const what = `${labelOf(result, comparison.herald)} ÷ ${labelOf(result, comparison.baseline)} (${metricTitle(result, comparison.metric)})`;
      const target = comparison.target === undefined ? "" : `  target ${targetText(comparison)}  ${verdict(comparison.met)}`;
      lines.push(`  ${what}: ${formatRatio(comparison.ratio)}${target}`);
    }
    for (const item of result.checks) {
      lines.push(`  ${item.label}: ${formatNumber(item.value, 0)} ${item.unit}  target < ${item.limit} ${item.unit}  ${verdict(item.met)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The same results as Markdown tables, for docs/performance.md. */
export function markdownReport(report: BenchReport): string {
  const { machine } = report;
  const lines = [
    `Run: ${report.startedAt}, mode \`${report.mode}\`, ${report.durationSeconds.toFixed(0)} s in all.`,
    `Machine: ${machine.cpuModel}, \`nproc\` ${machine.nproc}, ${machine.memoryGiB} GiB, Node.js ${machine.node}, ${machine.platform}.`,
    "",
    "| scenario | comparison | ratio | target | |",
    "|---|---|---|---|---|",
  ];
  for (const result of report.scenarios) {
    for (const comparison of result.comparisons) {
      lines.push(
        `| ${result.title} | ${labelOf(result, comparison.herald)} ÷ ${labelOf(result, comparison.baseline)} (${metricTitle(result, comparison.metric)}) | ${formatRatio(comparison.ratio)} | ${targetText(comparison)} | ${verdict(comparison.met)} |`,
      );
    }
    for (const item of result.checks) {
      lines.push(`| ${result.title} | ${item.label} | ${formatNumber(item.value, 0)} ${item.unit} | < ${item.limit} ${item.unit} | ${verdict(item.met)} |`);
    }
    if (result.status !== "ran") lines.push(`| ${result.title} | ${result.status}: ${result.notes.join("; ")} | | | |`);
  }
  for (const result of report.scenarios) {
    if (!result.rows.length) continue;
    lines.push("", `**${result.title}**`, "");
    for (const note of result.notes) lines.push(`> ${note}`, ">");
    if (result.notes.length) lines.pop();
    if (result.notes.length) lines.push("");
    lines.push(`| subject | ${result.columns.map((column) => column.title).join(" | ")} |`);
    lines.push(`|---|${result.columns.map(() => "---:").join("|")}|`);
    for (const row of result.rows) {
      lines.push(`| ${row.label} | ${result.columns.map((column) => formatNumber(row.values[column.key], column.digits)).join(" | ")} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}
