import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serverUrl, startTestServer, useTestServer } from "herald/testing";
import { herald } from "../support/cli";
import { TestSocket } from "./websocket/support/test-socket";

/** One encoder on every transport: what a response becomes, and how one JSON cannot carry fails. */
const appDir = join(__dirname, "../fixtures/apps/encoding");
useTestServer({ appDir, env: { REDIS_URL: "", LOG_LEVEL: "fatal" } });

interface Failure {
  type: string;
  message: string;
}

let mcp: Client;
beforeAll(async () => {
  mcp = new Client({ name: "herald-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
});
afterAll(() => mcp?.close());

async function overHttp(route: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${serverUrl()}/api${route}`);
  return { status: response.status, body: await response.json() };
}

async function overWebSocket(action: string): Promise<any> {
  const socket = await TestSocket.open();
  try {
    return await socket.action(action);
  } finally {
    await socket.close();
  }
}

async function overMcp(action: string): Promise<any> {
  return mcp.callTool({ name: action.replace(/:/g, "-"), arguments: {} });
}

async function overCli(action: string): Promise<{ code: number; documents: any[] }> {
  const run = await herald([action, "-q"], { cwd: appDir });
  return { code: run.code, documents: run.stdout.trim().split("\n").map((line) => JSON.parse(line)) };
}

const failureOf = (error: Failure): Failure => ({ type: error.type, message: error.message });

describe.each([
  ["encode:bigint", "/bigint", 'The response of "encode:bigint" cannot be encoded as JSON: response.order.total is a BigInt: convert it with String() or Number()'],
  ["encode:cycle", "/cycle", 'The response of "encode:cycle" cannot be encoded as JSON: response.children[0].parent is response again, a cycle'],
  [
    "encode:undeclared",
    "/undeclared",
    'The response of "encode:undeclared" cannot be encoded as JSON: response is an async iterable, which only a streaming action (async *run, or web.streaming) may return, as its whole response',
  ],
])("%s fails alike on every transport", (action, route, message) => {
  const expected = { type: "CONNECTION_SERVER_ERROR", message };

  test("HTTP: 500 with the error body", async () => {
    const { status, body } = await overHttp(route);
    expect(status).toBe(500);
    expect(failureOf(body.error)).toEqual(expected);
  });

  test("WebSocket: the error reply", async () => {
    const reply = await overWebSocket(action);
    expect(reply.response).toBeUndefined();
    expect(failureOf(reply.error)).toEqual(expected);
  });

  test("MCP: an isError tool result with the error body", async () => {
    const result = await overMcp(action);
    expect(result.isError).toBe(true);
    expect(failureOf((result.structuredContent as { error: Failure }).error)).toEqual(expected);
  });

  test("CLI: the error body and exit code 1", async () => {
    const { code, documents } = await overCli(action);
    expect(code).toBe(1);
    expect(documents).toHaveLength(1);
    expect(failureOf(documents[0].error)).toEqual(expected);
  });
});

describe("values plain JSON would mangle are encoded alike everywhere", () => {
  const expected = { at: "2026-01-02T03:04:05.000Z", bytes: "aGk=", map: { a: 1 }, set: ["x", "y"], list: [null, 1] };

  test("over HTTP, WebSocket, MCP and the CLI", async () => {
    expect((await overHttp("/values")).body).toEqual(expected);
    expect((await overWebSocket("encode:values")).response).toEqual(expected);
    expect((await overMcp("encode:values")).structuredContent).toEqual(expected);
    expect((await overCli("encode:values")).documents).toEqual([{ response: expected }]);
  });
});

describe("a streaming action (async *run)", () => {
  const ticks = [{ tick: 1 }, { tick: 2 }, { tick: 3 }];

  test("over WebSocket: one chunk message per value, then the call's one answer", async () => {
    const socket = await TestSocket.open();
    try {
      const answered = socket.next((message) => message.messageId === "s-1" && "response" in message);
      socket.send({ messageType: "action", messageId: "s-1", action: "encode:ticks", params: { count: 3 } });
      await answered;
      expect(socket.received.filter((message) => message.messageId === "s-1")).toEqual([
        ...ticks.map((chunk) => ({ messageId: "s-1", chunk })),
        { messageId: "s-1", response: null },
      ]);
    } finally {
      await socket.close();
    }
  });

  test("over HTTP: Server-Sent Events", async () => {
    const response = await fetch(`${serverUrl()}/api/ticks?count=2`);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await response.text()).toBe('data: {"tick":1}\n\ndata: {"tick":2}\n\nevent: end\ndata: {}\n\n');
  });

  test("the OpenAPI document says so, without web.streaming", async () => {
    const document = await (await fetch(`${serverUrl()}/api/openapi.json`)).json();
    expect(Object.keys(document.paths["/api/ticks"].get.responses["200"].content)).toEqual(["text/event-stream"]);
  });

  test("over MCP: a progress notification per value, and all of them as the result", async () => {
    const progress: { progress: number; message?: string }[] = [];
    const result = await mcp.callTool({ name: "encode-ticks", arguments: { count: 3 } }, undefined, {
      onprogress: (update) => progress.push({ progress: update.progress, message: update.message }),
    });
    expect(result.structuredContent).toEqual({ result: ticks });
    expect(progress).toEqual(ticks.map((tick, index) => ({ progress: index + 1, message: JSON.stringify(tick) })));
  });

  test("over the CLI: one chunk document per line, then the response", async () => {
    const { code, documents } = await overCli("encode:ticks");
    expect(code).toBe(0);
    expect(documents).toEqual([...ticks.map((chunk) => ({ chunk })), { response: null }]);
  });
});

/** The error a boot fails with; a server that boots after all is stopped, and gives undefined. */
async function bootFailure(app: string): Promise<unknown> {
  try {
    const server = await startTestServer({ appDir: join(__dirname, "../fixtures/apps", app), env: { REDIS_URL: "", LOG_LEVEL: "fatal" } });
    await server.stop();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("a transport that cannot stream refuses a streaming action at boot", () => {
  test("tasks: naming the action and the transport", async () => {
    expect(await bootFailure("streaming-task")).toMatchObject({
      type: "SERVER_INITIALIZATION",
      message:
        'Action "feed:refresh" streams its response (async *run), which a background task cannot carry: a job has no caller to stream to; remove its "task", or return a value',
    });
  });

  test("an MCP resource: naming the action and the transport", async () => {
    expect(await bootFailure("streaming-resource")).toMatchObject({
      type: "SERVER_INITIALIZATION",
      message: 'Action "feed:latest" streams its response (web.streaming), which an MCP resource cannot carry: set mcp.resource to false, or leave "mcp" out of its transports',
    });
  });
});
