import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { serverUrl, useTestServer } from "herald/testing";
import { jsonLogs } from "../support/json-logs";
import { TestSocket } from "../transports/websocket/support/test-socket";
import { parentOf, remoteParent, SpanKind, useInMemoryTracing } from "./support/in-memory-tracing";
import { getUserOf, oneSpan, taskTraces } from "./support/task-traces";

/**
 * With a tracer provider registered before the server boots, every transport's calls make spans
 * that are each other's parents and children, continuing the trace context a caller sent.
 */
const appDir = join(__dirname, "../fixtures/apps/traced");
const exporter = useInMemoryTracing();
const logs = jsonLogs();
useTestServer({ appDir, env: { REDIS_URL: "", LOG_LEVEL: "info", LOG_FORMAT: "json" }, logDestination: logs.stream });
beforeEach(() => exporter.reset());

const named = (name: string) => (span: ReadableSpan) => span.name === name;

const one = (match: (span: ReadableSpan) => boolean) => oneSpan(exporter, match);
const getUser = getUserOf(serverUrl);

describe("HTTP", () => {
  test("a request's server span continues the caller's traceparent, and the action's span is its child", async () => {
    const caller = remoteParent();
    const answer = await getUser("u1", "", { traceparent: caller.traceparent, "user-agent": "traces-test" });
    const http = await one(named("GET /api/users/:id"));
    const action = await one(named("traced:user"));

    expect(http.spanContext().traceId).toBe(caller.traceId);
    expect(parentOf(http)).toBe(caller.spanId);
    expect(http.kind).toBe(SpanKind.SERVER);
    expect(http.attributes).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/api/users/:id",
      "url.path": "/api/users/u1",
      "http.response.status_code": 200,
      "server.address": "127.0.0.1",
      "user_agent.original": "traces-test",
    });
    expect(parentOf(action)).toBe(http.spanContext().spanId);
    expect(action.kind).toBe(SpanKind.INTERNAL);
    expect(action.attributes).toMatchObject({ "rpc.system.name": "herald", "rpc.method": "traced:user", "herald.transport": "web" });
    expect(answer.traceId).toBe(caller.traceId);
  });

  test("the action's log line carries its trace and span ids", async () => {
    logs.lines.splice(0);
    const caller = remoteParent();
    await getUser("u2", "", { traceparent: caller.traceparent });
    const action = await one(named("traced:user"));
    const line = logs.lines.find((entry) => entry.msg === "traced user read" && entry.traced === "u2");
    expect(line).toMatchObject({ trace_id: caller.traceId, span_id: action.spanContext().spanId });
  });

  test("a request no route serves still gets a server span, named by its method alone", async () => {
    const response = await fetch(`${serverUrl()}/api/nowhere`);
    expect(response.status).toBe(404);
    const http = await one((span) => span.attributes["url.path"] === "/api/nowhere");
    expect(http.name).toBe("GET");
    expect(http.attributes["http.route"]).toBeUndefined();
    expect(http.attributes["http.response.status_code"]).toBe(404);
  });

  test("a request outside the API, which Express answers, gets its server span too, continuing the caller's traceparent", async () => {
    const caller = remoteParent();
    const response = await fetch(`${serverUrl()}/no-such-page`, { headers: { traceparent: caller.traceparent } });
    expect(response.status).toBe(404);
    const http = await one((span) => span.attributes["url.path"] === "/no-such-page");
    expect(http.name).toBe("GET");
    expect(http.kind).toBe(SpanKind.SERVER);
    expect(parentOf(http)).toBe(caller.spanId);
    expect(http.attributes["http.route"]).toBeUndefined();
    expect(http.attributes["http.response.status_code"]).toBe(404);
  });
});

describe("tasks (in process)", () => taskTraces(exporter, "herald", getUser));

describe("WebSocket", () => {
  test("an action message's traceparent is continued by its call's span", async () => {
    const caller = remoteParent();
    const socket = await TestSocket.open();
    try {
      const reply = await socket.request({ messageType: "action", action: "traced:user", params: { id: "w1" }, traceparent: caller.traceparent });
      expect(reply.response.traceId).toBe(caller.traceId);
    } finally {
      await socket.close();
    }
    const action = await one(named("traced:user"));
    expect(action.kind).toBe(SpanKind.SERVER);
    expect(action.spanContext().traceId).toBe(caller.traceId);
    expect(parentOf(action)).toBe(caller.spanId);
    expect(action.attributes["herald.transport"]).toBe("websocket");
  });

  test("a message without one starts a trace of its own", async () => {
    const socket = await TestSocket.open();
    try {
      await socket.action("traced:user", { id: "w2" });
    } finally {
      await socket.close();
    }
    const action = await one(named("traced:user"));
    expect(parentOf(action)).toBeUndefined();
  });
});

describe("MCP", () => {
  async function client(headers: Record<string, string> = {}): Promise<Client> {
    const mcp = new Client({ name: "traces-test", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`), { requestInit: { headers } }));
    return mcp;
  }

  async function toolName(mcp: Client): Promise<string> {
    return (await mcp.listTools()).tools.find((tool) => tool.name.includes("user"))!.name;
  }

  test("a tool call's span is a child of its HTTP request's span, which continues the traceparent header", async () => {
    const caller = remoteParent();
    const mcp = await client({ traceparent: caller.traceparent });
    try {
      const tool = await toolName(mcp);
      exporter.reset();
      await mcp.callTool({ name: tool, arguments: { id: "m1" } });
      const request = await one(named(`tools/call ${tool}`));
      expect(request.kind).toBe(SpanKind.SERVER);
      const post = await one((span) => span.name === "POST /mcp" && span.spanContext().spanId === parentOf(request));
      expect(post.kind).toBe(SpanKind.SERVER);
      expect(post.attributes).toMatchObject({ "http.route": "/mcp", "http.request.method": "POST", "http.response.status_code": 200 });
      expect(parentOf(post)).toBe(caller.spanId);
      expect(request.spanContext().traceId).toBe(caller.traceId);
      expect(request.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": tool, "gen_ai.operation.name": "execute_tool" });
      expect(typeof request.attributes["jsonrpc.request.id"]).toBe("string");
      const action = await one(named("traced:user"));
      expect(parentOf(action)).toBe(request.spanContext().spanId);
      expect(action.attributes["herald.transport"]).toBe("mcp");
    } finally {
      await mcp.close();
    }
  });

  test("params._meta.traceparent is continued, and wins over the header", async () => {
    const header = remoteParent();
    const meta = remoteParent();
    const mcp = await client({ traceparent: header.traceparent });
    try {
      const tool = await toolName(mcp);
      exporter.reset();
      await mcp.callTool({ name: tool, arguments: { id: "m2" }, _meta: { traceparent: meta.traceparent } });
      const request = await one(named(`tools/call ${tool}`));
      expect(request.spanContext().traceId).toBe(meta.traceId);
      expect(parentOf(request)).toBe(meta.spanId);
    } finally {
      await mcp.close();
    }
  });
});
