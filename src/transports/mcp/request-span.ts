import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import { ATTR_ERROR_TYPE } from "@opentelemetry/semantic-conventions";
import { ProtocolError, type ServerContext } from "@modelcontextprotocol/server";
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE_URI,
  ATTR_MCP_SESSION_ID,
  ATTR_RPC_RESPONSE_STATUS_CODE,
} from "../../core/trace-attributes";
import { continuedContext, heraldTracer, isTracing } from "../../core/tracing";
import { requestCaller } from "./request-caller";

/** What an MCP request names, for its span: a tool, a prompt or a resource. */
export interface McpTarget {
  tool?: string;
  prompt?: string;
  uri?: string;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The request's attributes, after the MCP semantic conventions. */
function attributesOf(ctx: ServerContext, target: McpTarget, headers: Record<string, string | string[] | undefined> | undefined): Attributes {
  const session = ctx.sessionId ?? header(headers?.["mcp-session-id"]);
  const version = header(headers?.["mcp-protocol-version"]);
  return {
    [ATTR_MCP_METHOD_NAME]: ctx.mcpReq.method,
    [ATTR_JSONRPC_REQUEST_ID]: String(ctx.mcpReq.id),
    ...(session ? { [ATTR_MCP_SESSION_ID]: session } : {}),
    ...(version ? { [ATTR_MCP_PROTOCOL_VERSION]: version } : {}),
    ...(target.tool !== undefined ? { [ATTR_GEN_AI_TOOL_NAME]: target.tool, [ATTR_GEN_AI_OPERATION_NAME]: "execute_tool" } : {}),
    ...(target.prompt !== undefined ? { [ATTR_GEN_AI_PROMPT_NAME]: target.prompt } : {}),
    ...(target.uri !== undefined ? { [ATTR_MCP_RESOURCE_URI]: target.uri } : {}),
  };
}

function failed(span: Span, type: string, message?: string): void {
  span.setAttribute(ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
}

/**
 * The context an MCP request's span continues: its `_meta.traceparent`, which belongs to this one
 * message; else the HTTP request's span, already a child of the request's `traceparent` header;
 * else (a transport with no span of its own) that header.
 */
function parentOf(meta: Record<string, unknown> | undefined, headers: Readonly<Record<string, unknown>> | undefined): Context {
  const active = context.active();
  if (typeof meta?.traceparent === "string") return continuedContext(meta, active);
  return trace.getSpan(active) ? active : continuedContext(headers, active);
}

/**
 * Handles one MCP request within a SERVER span named `tools/call get-weather` (the method, and
 * the tool or prompt it names), whose parent `parentOf` chooses. A JSON-RPC error, or a tool
 * result with `isError`, marks it failed.
 */
export async function withinMcpSpan<T>(ctx: ServerContext, target: McpTarget, handle: () => Promise<T>): Promise<T> {
  if (!isTracing()) return handle();
  const headers = requestCaller.getStore()?.headers;
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const parent = parentOf(meta, headers);
  const named = target.tool ?? target.prompt;
  const span = heraldTracer().startSpan(
    named === undefined ? ctx.mcpReq.method : `${ctx.mcpReq.method} ${named}`,
    { kind: SpanKind.SERVER, attributes: attributesOf(ctx, target, headers) },
    parent,
  );
  try {
    const result = await context.with(trace.setSpan(parent, span), handle);
    if ((result as { isError?: unknown } | undefined)?.isError === true) failed(span, "tool_error");
    return result;
  } catch (thrown) {
    if (thrown instanceof ProtocolError) {
      span.setAttribute(ATTR_RPC_RESPONSE_STATUS_CODE, String(thrown.code));
      failed(span, String(thrown.code), thrown.message);
    } else {
      failed(span, thrown instanceof Error ? thrown.name : "error", thrown instanceof Error ? thrown.message : undefined);
    }
    throw thrown;
  } finally {
    span.end();
  }
}
