import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { MCP_RESPONSE_FORMAT } from "../../core/constants";
import type { ActionResult } from "../../core/dispatcher";
import { errorBody } from "../../core/error-body";
import { toMarkdown } from "./markdown";

/** structuredContent must be an object; other values are wrapped so the JSON stays whole. */
function structured(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { result: value ?? null };
}

export function toolResult(result: ActionResult, format: `${MCP_RESPONSE_FORMAT}`, production: boolean): CallToolResult {
  if (result.error) {
    const body = errorBody(result.error, production);
    const issues = body.error.issues?.map((issue) => `- ${issue.path.join(".") || "(params)"}: ${issue.message}`);
    const text = issues?.length ? `${body.error.message}\n${issues.join("\n")}` : body.error.message;
    return {
      isError: true,
      content: [
        { type: "text", text },
        { type: "text", text: JSON.stringify(body) },
      ],
      structuredContent: body as unknown as Record<string, unknown>,
    };
  }
  const text = format === MCP_RESPONSE_FORMAT.MARKDOWN ? toMarkdown(result.response) : JSON.stringify(result.response ?? null);
  return {
    content: [{ type: "text", text }],
    structuredContent: structured(result.response),
  };
}
