/** Renders an action's response as readable Markdown, for MCP_RESPONSE_FORMAT.MARKDOWN. */
export function toMarkdown(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return "_none_";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "_none_";
    if (value.every(isFlatRecord)) return table(value as Record<string, unknown>[]);
    return value.map((item) => `${indent(depth)}- ${inline(item, depth + 1)}`).join("\n");
  }
  return Object.entries(value as Record<string, unknown>)
    .map(([key, item]) =>
      depth === 0 && typeof item === "object" && item !== null
        ? `## ${key}\n\n${toMarkdown(item, depth + 1)}`
        : `${indent(depth)}- **${key}**: ${inline(item, depth + 1)}`,
    )
    .join(depth === 0 ? "\n\n" : "\n");
}

function inline(value: unknown, depth: number): string {
  if (value !== null && typeof value === "object") return `\n${toMarkdown(value, depth)}`;
  return toMarkdown(value, depth);
}

function indent(depth: number): string {
  return "  ".repeat(Math.max(0, depth - 1));
}

function isFlatRecord(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => item === null || typeof item !== "object")
  );
}

function escapeCell(value: unknown): string {
  return value === null || value === undefined ? "" : String(value).replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function table(rows: Record<string, unknown>[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const header = `| ${columns.join(" | ")} |`;
  const rule = `| ${columns.map(() => "---").join(" | ")} |`;
  const body = rows.map((row) => `| ${columns.map((column) => escapeCell(row[column])).join(" | ")} |`);
  return [header, rule, ...body].join("\n");
}
