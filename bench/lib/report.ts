import { formatNumber, formatRatioSpread, formatSpread, targetText, verdict } from "./format";
import type { Machine } from "./machine";
import type { BenchReport, Column, Comparison, Row, ScenarioResult } from "./results";
import { labelOf } from "./results";

const HOW_TO_READ =
  "values: median over the rounds (lowest–highest round); ratios: Herald ÷ baseline taken round by round, their median (lowest–highest); targets judged on the median";

function cell(row: Row, column: Column): string {
  const spread = { median: row.values[column.key] ?? Number.NaN, min: row.min[column.key] ?? Number.NaN, max: row.max[column.key] ?? Number.NaN };
  return formatSpread(spread, row.rounds[column.key]?.length ?? 0, column.digits);
}

function metricTitle(result: ScenarioResult, key: string): string {
  return result.columns.find((column) => column.key === key)?.title ?? key;
}

function comparisonTitle(result: ScenarioResult, comparison: Comparison): string {
  return `${labelOf(result, comparison.herald)} ÷ ${labelOf(result, comparison.baseline)} (${metricTitle(result, comparison.metric)})`;
}

/** "node v22.23.3", and the harness's own version when --node= made them differ. */
function nodeText(machine: Machine): string {
  const harness = machine.harnessNode && machine.harnessNode !== machine.node ? ` (load generators on ${machine.harnessNode})` : "";
  return `${machine.node}${harness}`;
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
    `Herald benchmark (${report.mode}) — ${machine.cpuModel}, nproc ${machine.nproc}, node ${nodeText(machine)}, ${report.durationSeconds.toFixed(0)} s`,
    HOW_TO_READ,
  ];
  for (const result of report.scenarios) {
    lines.push("", scenarioHeading(result));
    for (const note of result.notes) lines.push(`  note: ${note}`);
    if (result.rows.length) {
      const header = ["subject", ...result.columns.map((column) => column.title)];
      const body = result.rows.map((row) => [row.label, ...result.columns.map((column) => cell(row, column))]);
      lines.push(...pad([header, ...body]).map((line) => `  ${line}`));
    }
    for (const comparison of result.comparisons) {
      const target = comparison.target === undefined ? "" : `  target ${targetText(comparison)}  ${verdict(comparison.met)}`;
      lines.push(`  ${comparisonTitle(result, comparison)}: ${formatRatioSpread(comparison)}${target}`);
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
    `Machine: ${machine.cpuModel}, \`nproc\` ${machine.nproc}, ${machine.memoryGiB} GiB, Node.js ${nodeText(machine)}, ${machine.platform}.`,
    "",
    `${HOW_TO_READ[0]!.toUpperCase()}${HOW_TO_READ.slice(1)}.`,
    "",
    "| scenario | comparison | ratio | target | |",
    "|---|---|---|---|---|",
  ];
  for (const result of report.scenarios) {
    for (const comparison of result.comparisons) {
      lines.push(`| ${result.title} | ${comparisonTitle(result, comparison)} | ${formatRatioSpread(comparison)} | ${targetText(comparison)} | ${verdict(comparison.met)} |`);
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
      lines.push(`| ${row.label} | ${result.columns.map((column) => cell(row, column)).join(" | ")} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}
