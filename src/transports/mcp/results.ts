import type { CallToolResult } from "@modelcontextprotocol/server";
import { MCP_RESPONSE_FORMAT } from "../../core/constants";
import type { Connection } from "../../core/connection";
import type { ActionResult } from "../../core/dispatcher";
import { errorBody, toTypedError } from "../../core/error-body";
import type { TypedError } from "../../core/errors";
import type { Logger } from "../../core/logger";
import { DispatchedStream } from "../../core/dispatched-stream";
import { McpContent } from "../../core/ports/mcp-content";
import { toJsonValue } from "../../core/response-encoder";
import { forEachChunk } from "../../core/streaming";
import { toMarkdown } from "./markdown";

/**
 * structuredContent must be an object; other values are wrapped so the JSON stays whole. A tool
 * with an `outputSchema` wraps as that schema says (catalog.ts), whatever the value.
 */
function structured(value: unknown, wrapsResult: boolean | undefined): Record<string, unknown> {
  const wraps = wrapsResult ?? !(typeof value === "object" && value !== null && !Array.isArray(value));
  return wraps ? { result: value ?? null } : (value as Record<string, unknown>);
}

/**
 * A tool error result. Its structuredContent is the error body, except for a tool that declares
 * an `outputSchema`: clients check structuredContent against it, errors included, so there the
 * body is only in the text.
 */
function errorResult(error: TypedError, production: boolean, declaresOutput = false): CallToolResult {
  const body = errorBody(error, production);
  const issues = body.error.issues?.map((issue) => `- ${issue.path.join(".") || "(params)"}: ${issue.message}`);
  const text = issues?.length ? `${body.error.message}\n${issues.join("\n")}` : body.error.message;
  return {
    isError: true,
    content: [
      { type: "text", text },
      { type: "text", text: JSON.stringify(body) },
    ],
    ...(declaresOutput ? {} : { structuredContent: body as unknown as Record<string, unknown> }),
  };
}

export interface ToolCallContext {
  format: `${MCP_RESPONSE_FORMAT}`;
  production: boolean;
  logger: Logger;
  /** For a tool with an `outputSchema`: whether structuredContent wraps the value as `{ result }`. */
  wrapsResult?: boolean;
  signal: AbortSignal;
  /** Where each streamed value goes as a progress notification, when the caller asked for progress. */
  connection?: Connection;
}

/**
 * A streaming action's values, each sent as a progress notification (its JSON as the message)
 * when the caller gave a progress token; the tool result is the list of them all. Read until the
 * request's own signal aborts too, so a client that leaves stops the reading.
 */
async function collect(stream: DispatchedStream, context: ToolCallContext): Promise<unknown[]> {
  const values: unknown[] = [];
  await forEachChunk(stream, context.signal, async (text) => {
    values.push(JSON.parse(text as string));
    await context.connection?.reportProgress(values.length, undefined, text as string);
  });
  return values;
}

export async function toolResult(result: ActionResult, context: ToolCallContext): Promise<CallToolResult> {
  const declaresOutput = context.wrapsResult !== undefined;
  if (result.error) return errorResult(result.error, context.production, declaresOutput);
  if (result.response instanceof DispatchedStream) {
    try {
      return structuredResult(await collect(result.response, context), context);
    } catch (thrown) {
      // The dispatcher has logged how the stream ended.
      return errorResult(toTypedError(thrown, context.production), context.production, declaresOutput);
    }
  }
  // Content blocks are the result as the action made it; with outputs, structuredContent is their JSON.
  if (result.response instanceof McpContent) {
    const content = [...result.response.content] as CallToolResult["content"];
    return declaresOutput ? { content, structuredContent: structured(result.response.toJSON(), context.wrapsResult) } : { content };
  }
  let value: unknown;
  try {
    value = toJsonValue(result.actionName, result.response);
  } catch (thrown) {
    const error = toTypedError(thrown, context.production);
    context.logger.error({ err: error.cause ?? error, action: result.actionName }, "mcp: the tool result cannot be sent");
    return errorResult(error, context.production, declaresOutput);
  }
  return structuredResult(value, context);
}

function structuredResult(value: unknown, context: ToolCallContext): CallToolResult {
  const text = context.format === MCP_RESPONSE_FORMAT.MARKDOWN ? toMarkdown(value) : JSON.stringify(value);
  return {
    content: [{ type: "text", text }],
    structuredContent: structured(value, context.wrapsResult),
  };
}
