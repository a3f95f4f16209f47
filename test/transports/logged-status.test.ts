import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorStatusCodes, ErrorType, TaskService } from "herald";
import { serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import { herald } from "../support/cli";
import { jsonLogs, type LogLine } from "../support/json-logs";
import { TestSocket } from "./websocket/support/test-socket";

/**
 * The request log line of a call states the status its caller got, on each of the five
 * transports: for an answer, for an error the action declares, and for a response JSON cannot
 * carry, which fails when the dispatcher encodes it, before the line is written.
 */
const appDir = join(__dirname, "../fixtures/apps/logged-status");
const logs = jsonLogs();
useTestServer({ appDir, env: { REDIS_URL: "", LOG_LEVEL: "info", LOG_FORMAT: "json" }, logDestination: logs.stream });

let mcp: Client;
beforeAll(async () => {
  mcp = new Client({ name: "herald-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
});
afterAll(() => mcp?.close());

const statusOf = (type: string) => ErrorStatusCodes[type as ErrorType];

/** The one request log line of `action` from `connection`, once written. */
async function loggedLine(lines: LogLine[], action: string, connection: string): Promise<LogLine> {
  const mine = () => lines.filter((line) => line.action === action && line.connection === connection && typeof line.status === "number");
  await waitFor(() => mine().length > 0);
  expect(mine()).toHaveLength(1);
  return mine()[0]!;
}

const CASES = [
  ["outcome:answered", "/answered", 200],
  ["outcome:declared", "/declared", 404],
  ["outcome:unencodable", "/unencodable", 500],
] as const;

describe.each(CASES)("%s", (action, route, expected) => {
  beforeEach(() => logs.lines.splice(0));

  test("HTTP: the answered status is the logged one", async () => {
    const response = await fetch(`${serverUrl()}/api${route}`);
    await response.arrayBuffer();
    expect(response.status).toBe(expected);
    expect((await loggedLine(logs.lines, action, "web")).status).toBe(expected);
  });

  test("WebSocket: the answered status is the logged one", async () => {
    const socket = await TestSocket.open();
    let answered: number;
    try {
      const reply = await socket.action(action);
      answered = reply.error ? statusOf(reply.error.type) : 200;
    } finally {
      await socket.close();
    }
    expect(answered).toBe(expected);
    expect((await loggedLine(logs.lines, action, "websocket")).status).toBe(expected);
  });

  test("CLI: the answered status is the logged one", async () => {
    const run = await herald([action], { cwd: appDir, env: { REDIS_URL: "", LOG_LEVEL: "info", LOG_FORMAT: "json" } });
    const printed = JSON.parse(run.stdout.trim().split("\n").pop()!);
    const answered = printed.error ? statusOf(printed.error.type) : 200;
    expect(answered).toBe(expected);
    expect(run.code).toBe(expected === 200 ? 0 : 1);
    const stderr = run.stderr.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as LogLine);
    expect((await loggedLine(stderr, action, "cli")).status).toBe(expected);
  });

  test("tasks: the job's outcome is the logged one", async () => {
    const tasks = testServer().container.resolve(TaskService);
    const id = await tasks.enqueue(action, {}, { retries: 0 });
    let job = await tasks.getJob("outcomes", id);
    await waitFor(async () => {
      job = await tasks.getJob("outcomes", id);
      return job?.status === "succeeded" || job?.status === "failed";
    });
    const answered = job!.status === "failed" ? statusOf(job!.error!.type) : 200;
    expect(answered).toBe(expected);
    expect((await loggedLine(logs.lines, action, "task")).status).toBe(expected);
  });

  test("MCP: the tool result's status is the logged one", async () => {
    const result = await mcp.callTool({ name: action.replace(/:/g, "-"), arguments: {} });
    const body = result.structuredContent as { error?: { type: string } };
    const answered = result.isError ? statusOf(body.error!.type) : 200;
    expect(answered).toBe(expected);
    expect((await loggedLine(logs.lines, action, "mcp")).status).toBe(expected);
  });
});

describe("a response JSON cannot carry, read as an MCP resource or prompt", () => {
  beforeEach(() => logs.lines.splice(0));

  test("the resource read fails with the encoder's error, logged once with 500", async () => {
    const read = mcp.readResource({ uri: "herald://unencodable" });
    await expect(read).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("response.total is a BigInt") });
    const line = await loggedLine(logs.lines, "outcome:unencodable-resource", "mcp");
    expect(line).toMatchObject({ status: 500, msg: "action failed", error: { type: "CONNECTION_SERVER_ERROR" } });
  });

  test("the prompt fails with the encoder's error, logged once with 500", async () => {
    const got = mcp.getPrompt({ name: "outcome-unencodable-prompt", arguments: {} });
    await expect(got).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("response.total is a BigInt") });
    const line = await loggedLine(logs.lines, "outcome:unencodable-prompt", "mcp");
    expect(line).toMatchObject({ status: 500, msg: "action failed", error: { type: "CONNECTION_SERVER_ERROR" } });
  });

  test("nothing else about it is logged: the encoding failure is the call's one line", async () => {
    await mcp.readResource({ uri: "herald://unencodable" }).catch(() => undefined);
    await loggedLine(logs.lines, "outcome:unencodable-resource", "mcp");
    expect(logs.lines.filter((line) => JSON.stringify(line).includes("BigInt"))).toHaveLength(1);
  });
});
