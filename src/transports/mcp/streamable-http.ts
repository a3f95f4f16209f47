import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallerAddress } from "../../core/caller-address";
import type { Logger } from "../../core/logger";
import { DispatchedStream } from "../../core/dispatched-stream";
import type { ActionResult } from "../../core/dispatcher";
import { abortAbandoned } from "./abandoned-call";
import { precomputedCall, preRunnableToolCall, UNAUTHENTICATED } from "./auth-precheck";
import { requestCaller } from "./request-caller";
import { rebindingRefusal } from "./request-guard";
import type { McpSettings } from "./settings";

interface LiveSession {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
}

/** The SDK refuses a POST that does not accept both reply kinds; such a call must not run first. */
function acceptsStreamableReplies(request: IncomingMessage): boolean {
  const accept = request.headers.accept ?? "";
  return accept.includes("application/json") && accept.includes("text/event-stream");
}

function replyJsonRpcError(response: ServerResponse, status: number, message: string, code = -32000): void {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/**
 * Serves MCP's Streamable HTTP transport. With sessions, each `initialize` opens a session
 * (an MCP server and transport kept in memory, ended by DELETE or idleness); stateless, every
 * request gets its own server and transport, as the SDK requires.
 */
export class StreamableHttpEndpoint {
  private readonly sessions = new Map<string, LiveSession>();
  /** Tool calls run ahead of the SDK, by session and JSON-RPC id: the SDK cannot cancel what it never saw. */
  private readonly preRunning = new Map<string, AbortController>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly createServer: () => Server,
    private readonly preRun: (
      call: NonNullable<ReturnType<typeof preRunnableToolCall>>,
      request: IncomingMessage,
      controller: AbortController,
    ) => Promise<ActionResult | undefined>,
    private readonly settings: McpSettings,
    private readonly boundHost: () => string,
    private readonly logger: Logger,
    private readonly callerAddress: CallerAddress,
  ) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(settings.sessionIdleMs, 60_000));
    this.sweeper.unref();
  }

  get openSessions(): number {
    return this.sessions.size;
  }

  handle(request: IncomingMessage & { body?: unknown }, response: ServerResponse): Promise<void> {
    return requestCaller.run({ remoteAddress: this.callerAddress(request) }, () => this.answer(request, response));
  }

  private async answer(request: IncomingMessage & { body?: unknown }, response: ServerResponse): Promise<void> {
    const refusal = rebindingRefusal(request, {
      boundHost: this.boundHost(),
      hosts: this.settings.allowedHosts,
      origins: this.settings.allowedOrigins,
    });
    if (refusal) return replyJsonRpcError(response, 403, refusal);
    this.cancelPreRun(request);
    const call = request.method === "POST" && acceptsStreamableReplies(request) ? preRunnableToolCall(request.body) : undefined;
    if (call && (this.settings.mode === "stateless" || this.sessions.has(String(request.headers["mcp-session-id"])))) {
      const result = await this.preRunWithCancel(call, request, response);
      if (result?.error && UNAUTHENTICATED.has(result.error.type)) {
        response.setHeader("WWW-Authenticate", `Bearer realm="herald", error="invalid_token"`);
        return replyJsonRpcError(response, 401, result.error.message, -32001);
      }
      if (result) {
        return precomputedCall.run({ toolName: call.params.name, result }, () => this.dispatch(request, response));
      }
    }
    return this.dispatch(request, response);
  }

  private async preRunWithCancel(
    call: NonNullable<ReturnType<typeof preRunnableToolCall>>,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<ActionResult | undefined> {
    const controller = new AbortController();
    const key = `${String(request.headers["mcp-session-id"])}:${String(call.id)}`;
    const leave = () => {
      if (!response.writableFinished) abortAbandoned(controller, "closed");
    };
    this.preRunning.set(key, controller);
    response.once("close", leave);
    let streaming = false;
    try {
      const result = await this.preRun(call, request, controller);
      streaming = result?.response instanceof DispatchedStream;
      return result;
    } finally {
      // A stream is still the call: a client who leaves or cancels while it is sent ends it too.
      if (streaming) response.once("close", () => this.preRunning.get(key) === controller && this.preRunning.delete(key));
      else {
        this.preRunning.delete(key);
        response.off("close", leave);
      }
    }
  }

  /** A `notifications/cancelled` for a call run ahead of the SDK aborts it, as the SDK would its own. */
  private cancelPreRun(request: IncomingMessage & { body?: unknown }): void {
    if (request.method !== "POST" || this.preRunning.size === 0) return;
    const messages = Array.isArray(request.body) ? request.body : [request.body];
    for (const message of messages as { method?: unknown; params?: { requestId?: unknown } }[]) {
      if (message?.method !== "notifications/cancelled") continue;
      const key = `${String(request.headers["mcp-session-id"])}:${String(message.params?.requestId)}`;
      const controller = this.preRunning.get(key);
      if (controller) abortAbandoned(controller, "cancelled");
    }
  }

  private async dispatch(request: IncomingMessage & { body?: unknown }, response: ServerResponse): Promise<void> {
    if (this.settings.mode === "stateless") return this.handleStateless(request, response);

    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const live = this.sessions.get(sessionId);
      if (!live) return replyJsonRpcError(response, 404, "Unknown or expired MCP session", -32001);
      live.lastSeen = Date.now();
      return live.transport.handleRequest(request, response, request.body);
    }
    if (request.method !== "POST" || !isInitializeRequest(request.body)) {
      return replyJsonRpcError(response, 400, "Missing Mcp-Session-Id header: send initialize first");
    }
    await this.openSession(request, response);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id)));
  }

  private async openSession(request: IncomingMessage & { body?: unknown }, response: ServerResponse): Promise<void> {
    const server = this.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, lastSeen: Date.now() });
      },
      onsessionclosed: (id) => {
        void this.end(id);
      },
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  }

  private async handleStateless(request: IncomingMessage & { body?: unknown }, response: ServerResponse): Promise<void> {
    const server = this.createServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  }

  private async end(id: string): Promise<void> {
    const live = this.sessions.get(id);
    if (!live) return;
    this.sessions.delete(id);
    await live.server.close().catch((error: unknown) => this.logger.warn({ err: error, sessionId: id }, "MCP session close failed"));
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.settings.sessionIdleMs;
    for (const [id, live] of this.sessions) if (live.lastSeen < cutoff) void this.end(id);
  }
}
