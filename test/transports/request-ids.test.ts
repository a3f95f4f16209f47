import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TaskService } from "herald";
import { serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import { herald } from "../support/cli";
import { jsonLogs, type LogLine } from "../support/json-logs";
import { TestSocket } from "./websocket/support/test-socket";

/**
 * A traffic sample over every transport, good calls and refusals alike, leaves no log line about a
 * request without its request id. A line is about a request when it names an action, an HTTP
 * method, a status, a WebSocket connection or message, a job or a JSON-RPC id; its id is
 * `requestId` (HTTP, WebSocket, MCP over HTTP, CLI) or `jobId` (a job, which no request carries).
 */
const appDir = join(__dirname, "../fixtures/apps/logged-status");
const env = { REDIS_URL: "", LOG_LEVEL: "debug", LOG_FORMAT: "json" };
const logs = jsonLogs();
useTestServer({ appDir, env, logDestination: logs.stream });

const ABOUT_A_REQUEST = ["action", "method", "status", "connectionId", "messageId", "jobId", "jsonrpcId"];
const isAboutARequest = (line: LogLine) => ABOUT_A_REQUEST.some((field) => line[field] !== undefined);
const hasItsId = (line: LogLine) => typeof line.requestId === "string" || typeof line.jobId === "string";
const DEBUG = 20;
const INFO = 30;

/** A secret only ever sent in query strings: no line may carry it. */
const SECRET = "query-secret-91";

let cliLines: LogLine[] = [];
/** The body of each HTTP request the MCP client sent ("" for one without). */
const mcpRequests: string[] = [];
let jobId: string;

beforeAll(async () => {
  const base = serverUrl();
  const get = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, init).then((response) => response.arrayBuffer().then(() => response.status));
  const statuses: Record<string, number> = {
    good: await get(`/api/answered?token=${SECRET}`, { headers: { "X-Request-Id": "http-good-1" } }),
    badJson: await get("/api/echo", { method: "POST", headers: { "Content-Type": "application/json", "X-Request-Id": "http-bad-json" }, body: "{not json" }),
    unknownRoute: await get(`/api/nowhere?token=${SECRET}`, { headers: { "X-Request-Id": "http-unknown" } }),
    wrongMethod: await get("/api/answered", { method: "DELETE", headers: { "X-Request-Id": "http-405" } }),
    preflight: await get("/api/answered", { method: "OPTIONS", headers: { "X-Request-Id": "http-options" } }),
    outsidePrefix: await get("/nothing-here", { headers: { "X-Request-Id": "http-express-404" } }),
    openapi: await get("/api/openapi.json", { headers: { "X-Request-Id": "http-openapi" } }),
    badMcpBody: await get("/mcp", { method: "POST", headers: { "Content-Type": "application/json", "X-Request-Id": "mcp-bad-body" }, body: "{nope" }),
    livez: await get("/livez", { headers: { "X-Request-Id": "probe-live" } }),
    readyz: await get("/readyz", { headers: { "X-Request-Id": "probe-ready" } }),
  };
  expect(statuses).toEqual({ good: 200, badJson: 400, unknownRoute: 404, wrongMethod: 405, preflight: 204, outsidePrefix: 404, openapi: 200, badMcpBody: 400, livez: 200, readyz: 200 });

  const wsUrl = `${base.replace(/^http/, "ws")}/ws`;
  const socket = await TestSocket.open(wsUrl, { headers: { "X-Request-Id": "ws-upgrade-7" } });
  try {
    expect(await socket.request({ messageId: "ws-msg-1", messageType: "action", action: "outcome:answered", params: {} })).toMatchObject({ messageId: "ws-msg-1" });
  } finally {
    await socket.close();
  }
  expect((await TestSocket.refused(`${base.replace(/^http/, "ws")}/not-a-socket`, { headers: { "X-Request-Id": "ws-refused" } })).status).toBe(404);

  const mcp = new Client({ name: "herald-test", version: "1.0.0" });
  const counting = (input: string | URL | Request, init?: RequestInit) => {
    mcpRequests.push(typeof init?.body === "string" ? init.body : "");
    return fetch(input, init);
  };
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { "X-Request-Id": "mcp-req-42" } }, fetch: counting }),
  );
  try {
    expect((await mcp.callTool({ name: "outcome-answered", arguments: {} })).isError).toBeFalsy();
  } finally {
    await mcp.close();
  }

  const tasks = testServer().container.resolve(TaskService);
  jobId = await tasks.enqueue("outcome:answered", {}, { retries: 0 });
  await waitFor(() => logs.lines.some((line) => line.jobId === jobId && line.status === 200));

  const run = await herald(["outcome:answered"], { cwd: appDir, env });
  expect(run.code).toBe(0);
  cliLines = run.stderr.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as LogLine);
  // The WebSocket's close is logged once the server has seen it.
  await waitFor(() => logs.lines.some((line) => line.msg === "websocket closed"));
});

test("every line about a request, on every transport and at every level, carries its request id", () => {
  const about = [...logs.lines, ...cliLines].filter(isAboutARequest);
  // The sample reached every transport and its refusals.
  expect(new Set(about.map((line) => line.connection ?? (line.method ? "access" : "other")))).toEqual(new Set(["web", "websocket", "mcp", "task", "cli", "access", "other"]));
  expect(about.filter((line) => !hasItsId(line))).toEqual([]);
});

test("an MCP call sent with X-Request-Id is logged with it and with its JSON-RPC id", () => {
  const line = logs.lines.find((candidate) => candidate.action === "outcome:answered" && candidate.connection === "mcp");
  expect(line).toMatchObject({ requestId: "mcp-req-42", jsonrpcId: expect.anything(), status: 200 });
});

test("a WebSocket message's line carries its messageId, its connection's id and the upgrade's request id", () => {
  const line = logs.lines.find((candidate) => candidate.action === "outcome:answered" && candidate.connection === "websocket");
  expect(line).toMatchObject({ messageId: "ws-msg-1", connectionId: expect.any(String), requestId: "ws-upgrade-7", status: 200 });
  const upgrade = logs.lines.find((candidate) => candidate.msg === "request" && candidate.requestId === "ws-upgrade-7");
  expect(upgrade).toMatchObject({ method: "GET", path: "/ws", status: 101 });
  for (const socketLine of logs.lines.filter((candidate) => candidate.connectionId === line!.connectionId)) expect(socketLine.requestId).toBe("ws-upgrade-7");
});

test("a job's line carries its id and queue; a CLI call's line carries its id", () => {
  expect(logs.lines.find((line) => line.jobId === jobId && line.status === 200)).toMatchObject({ connection: "task", queue: "outcomes", action: "outcome:answered" });
  const cli = cliLines.find((line) => line.action === "outcome:answered");
  expect(cli).toMatchObject({ connection: "cli", status: 200, requestId: expect.any(String) });
  expect(cli!.requestId).toBe(cli!.connectionId);
});

test("each request that is not an action call gets one access line: method, path without its query, status, duration, id", () => {
  const access = (requestId: string) => logs.lines.filter((line) => line.msg === "request" && line.requestId === requestId);
  const expected: [string, string, string, number][] = [
    ["http-bad-json", "POST", "/api/echo", 400],
    ["http-unknown", "GET", "/api/nowhere", 404],
    ["http-405", "DELETE", "/api/answered", 405],
    ["http-options", "OPTIONS", "/api/answered", 204],
    ["http-express-404", "GET", "/nothing-here", 404],
    ["http-openapi", "GET", "/api/openapi.json", 200],
    ["mcp-bad-body", "POST", "/mcp", 400],
    ["ws-refused", "GET", "/not-a-socket", 404],
  ];
  for (const [requestId, method, path, status] of expected) {
    const lines = access(requestId);
    expect(lines).toEqual([expect.objectContaining({ level: INFO, method, path, status, durationMs: expect.any(Number) })]);
  }
  // The query string may hold secrets: an access line names the path alone (an action's line shows its params, redacted by LOG_PARAMS).
  expect(logs.text.filter((text) => text.includes(SECRET) && text.includes('"msg":"request"'))).toEqual([]);
});

test("an action call is logged once, by its request log line, with no access line", () => {
  expect(logs.lines.filter((line) => line.requestId === "http-good-1")).toEqual([
    expect.objectContaining({ msg: "action", action: "outcome:answered", connection: "web", status: 200 }),
  ]);
  // The MCP client's other requests (initialize, its notification, the GET it tries) are not action calls: an access line each.
  const mcpAccess = logs.lines.filter((line) => line.requestId === "mcp-req-42" && line.msg === "request");
  expect(mcpAccess).toHaveLength(mcpRequests.length - mcpRequests.filter((body) => body.includes('"tools/call"')).length);
  expect(mcpRequests.filter((body) => body.includes('"tools/call"'))).toHaveLength(1);
});

test("probes are logged at debug, never at info", () => {
  for (const requestId of ["probe-live", "probe-ready"]) {
    expect(logs.lines.filter((line) => line.requestId === requestId)).toEqual([expect.objectContaining({ level: DEBUG, msg: "request", status: 200 })]);
  }
});
