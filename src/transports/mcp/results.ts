import { ProtocolError, ProtocolErrorCode, type CallToolResult, type GetPromptResult, type ReadResourceResult } from "@modelcontextprotocol/server";
import { MCP_RESPONSE_FORMAT } from "../../core/constants";
import type { Connection } from "../../core/connection";
import type { ActionResult, Answer } from "../../core/action-result";
import type { DispatchedStream } from "../../core/dispatched-stream";
import type { ErrorBody } from "../../core/error-body";
import { base64, McpContent } from "../../core/ports/mcp-content";
import { isUnencodableResponse } from "../../core/response-encoder";
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
function errorResult(body: ErrorBody, declaresOutput = false): CallToolResult {
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

/** Which responses a tool call sends as they are: content blocks the action made. */
export function isMcpContent(response: unknown): response is McpContent {
  return response instanceof McpContent;
}

/** The dispatcher's answer as a tool result. */
export async function toolResult(result: ActionResult, context: ToolCallContext): Promise<CallToolResult> {
  const declaresOutput = context.wrapsResult !== undefined;
  const { answer } = result;
  switch (answer.kind) {
    case "error":
      return errorResult(answer.body, declaresOutput);
    case "stream":
      try {
        return structuredResult(await collect(answer.stream, context), context);
      } catch (thrown) {
        // The dispatcher has logged how the stream ended.
        return errorResult(answer.stream.errorBody(thrown), declaresOutput);
      }
    case "framed": {
      // Content blocks are the result as the action made it; with outputs, structuredContent is their JSON.
      const made = answer.value as McpContent;
      const content = [...made.content] as CallToolResult["content"];
      return declaresOutput ? { content, structuredContent: structured(made.toJSON(), context.wrapsResult) } : { content };
    }
    case "json":
      return structuredResult(JSON.parse(answer.text), context);
  }
}

function structuredResult(value: unknown, context: ToolCallContext): CallToolResult {
  const text = context.format === MCP_RESPONSE_FORMAT.MARKDOWN ? toMarkdown(value) : JSON.stringify(value);
  return {
    content: [{ type: "text", text }],
    structuredContent: structured(value, context.wrapsResult),
  };
}

/**
 * A request error for an answer that is one: its message, with the error body as data. A response
 * JSON cannot carry is the server's failure (InternalError); any other the request's (InvalidParams).
 */
export function requestError(answer: Extract<Answer, { kind: "error" }>): ProtocolError {
  const code = isUnencodableResponse(answer.error) ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams;
  return new ProtocolError(code, answer.error.message, answer.body);
}

/** Which responses a resource sends as they are: text, and bytes (a binary resource, sent as a base64 blob). */
export function isResourceBody(response: unknown): response is string | Uint8Array {
  return typeof response === "string" || response instanceof Uint8Array;
}

/** The dispatcher's answer as a resource's contents. */
export function resourceResult(answer: Answer, uri: string, mimeType: string | undefined): ReadResourceResult {
  if (answer.kind === "error") throw requestError(answer);
  if (answer.kind === "framed" && answer.value instanceof Uint8Array) {
    return { contents: [{ uri, mimeType, blob: base64(answer.value) }] };
  }
  return { contents: [{ uri, mimeType, text: answerText(answer) }] };
}

/** Which responses a prompt sends as they are: a string (the user's message) or its own `{ messages }`. */
export function isPromptBody(response: unknown): response is string | Pick<GetPromptResult, "messages"> {
  return typeof response === "string" || (typeof response === "object" && response !== null && Array.isArray((response as { messages?: unknown }).messages));
}

/** The dispatcher's answer as a prompt: its own messages, or one user message of its text (any other value as JSON). */
export function promptResult(answer: Answer, description: string | undefined): GetPromptResult {
  if (answer.kind === "error") throw requestError(answer);
  const withDescription = description ? { description } : {};
  if (answer.kind === "framed" && typeof answer.value === "object") {
    return { ...withDescription, messages: (answer.value as GetPromptResult).messages };
  }
  return { ...withDescription, messages: [{ role: "user", content: { type: "text", text: answerText(answer) } }] };
}

/** A framed string as it is, a JSON answer as its text; resources and prompts do not stream (catalog.ts refuses them at boot). */
function answerText(answer: Exclude<Answer, { kind: "error" }>): string {
  if (answer.kind === "json") return answer.text;
  if (answer.kind === "framed" && typeof answer.value === "string") return answer.value;
  throw new Error(`an MCP read cannot send a ${answer.kind} answer`);
}
