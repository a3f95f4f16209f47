import { AsyncLocalStorage } from "node:async_hooks";
import type { ActionResult } from "../../core/dispatcher";
import { ErrorType } from "../../core/errors";

/**
 * A tool call that fails authentication must be answered with HTTP 401 and a
 * `WWW-Authenticate: Bearer` header, which MCP clients use to start their sign-in. The status
 * of a streamed MCP reply is sent before the tool runs, so such calls are run once up front,
 * and the result is handed to the MCP handler through this per-request context.
 */
export const precomputedCall = new AsyncLocalStorage<{ toolName: string; result: ActionResult }>();

export const UNAUTHENTICATED = new Set<ErrorType>([
  ErrorType.CONNECTION_NOT_AUTHENTICATED,
  ErrorType.CONNECTION_SESSION_NOT_FOUND,
]);

interface ToolCallBody {
  jsonrpc: "2.0";
  id: string | number;
  method: "tools/call";
  params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: unknown } };
}

/** A lone tools/call that asked for no progress: the one case run ahead of the MCP transport. */
export function preRunnableToolCall(body: unknown): ToolCallBody | undefined {
  const candidate = body as Partial<ToolCallBody> | undefined;
  if (!candidate || Array.isArray(body) || candidate.method !== "tools/call") return undefined;
  if (typeof candidate.params?.name !== "string" || candidate.params._meta?.progressToken !== undefined) return undefined;
  return candidate as ToolCallBody;
}
