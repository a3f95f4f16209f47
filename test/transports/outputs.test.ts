import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serverUrl, startTestServer, useTestServer } from "herald/testing";
import { loadConfig } from "../../src/core/config";
import { jsonLogs } from "../support/json-logs";
import { TestSocket } from "./websocket/support/test-socket";

/** `outputs`: what a response is checked against, and what the documents and MCP say of it. */
const appDir = join(__dirname, "../fixtures/apps/outputs");
const logs = jsonLogs();
useTestServer({ appDir, env: { REDIS_URL: "", LOG_LEVEL: "info", LOG_FORMAT: "json" }, logDestination: logs.stream });

let mcp: Client;
beforeAll(async () => {
  mcp = new Client({ name: "herald-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
});
afterAll(() => mcp?.close());

const get = async (route: string) => {
  const response = await fetch(`${serverUrl()}/api${route}`);
  return { status: response.status, body: await response.json() };
};

const WRONG_MESSAGE = 'Action "typed:wrong" returned a response its outputs do not describe, at items[1].id: Invalid input: expected number, received string';

describe("outside production, every response is checked against the action's outputs", () => {
  test("a response its outputs describe is sent as run returned it, a date as its ISO text", async () => {
    expect(await get("/author")).toEqual({
      status: 200,
      body: { author: { id: 7, name: "Ada", joinedAt: "2026-01-02T00:00:00.000Z", apiToken: "tok_7" } },
    });
  });

  test("a response they do not describe is a 500 naming the action and the first wrong field's path", async () => {
    const { status, body } = await get("/wrong");
    expect(status).toBe(500);
    expect(body.error).toMatchObject({ type: "CONNECTION_ACTION_OUTPUT_VALIDATION", message: WRONG_MESSAGE });
    expect(body.error.issues).toBeUndefined();
  });

  test("the request log has every issue of the mismatch", async () => {
    await get("/wrong");
    const line = [...logs.lines].reverse().find((entry) => entry.action === "typed:wrong")!;
    expect(line).toMatchObject({ status: 500, msg: "action failed", error: { type: "CONNECTION_ACTION_OUTPUT_VALIDATION" } });
    expect(JSON.stringify(line.err)).toContain("expected number, received string");
  });

  test("an async refine in outputs is awaited: a list too long for it is refused, a short one sent", async () => {
    expect(await get("/list?count=2")).toEqual({ status: 200, body: ["name 0", "name 1"] });
    const { status, body } = await get("/list?count=5");
    expect(status).toBe(500);
    expect(body.error.message).toBe('Action "typed:list" returned a response its outputs do not describe, as a whole: at most three names');
  });

  test("a streaming action's every value is checked: the first it does not describe ends the stream with the error", async () => {
    const text = await (await fetch(`${serverUrl()}/api/feed`)).text();
    const [first, second] = text.trim().split("\n\n");
    expect(first).toBe('data: {"n":1}');
    expect(second).toMatch(/^event: error\ndata: /);
    expect(JSON.parse(second!.split("\ndata: ")[1]!).error).toMatchObject({
      type: "CONNECTION_ACTION_OUTPUT_VALIDATION",
      message: 'Action "typed:feed" returned a response its outputs do not describe, at n: Invalid input: expected number, received string',
    });
  });

  test("the check is the dispatcher's: a WebSocket call gets the same error", async () => {
    const socket = await TestSocket.open();
    try {
      const reply = await socket.action("typed:wrong");
      expect(reply.error).toMatchObject({ type: "CONNECTION_ACTION_OUTPUT_VALIDATION", message: WRONG_MESSAGE });
    } finally {
      await socket.close();
    }
  });
});

describe("CHECK_OUTPUTS", () => {
  test("is on outside production and off in production unless set", () => {
    expect(loadConfig({ NODE_ENV: "development" }).checkOutputs).toBe(true);
    expect(loadConfig({ NODE_ENV: "test" }).checkOutputs).toBe(true);
    expect(loadConfig({ NODE_ENV: "production" }).checkOutputs).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", CHECK_OUTPUTS: "true" }).checkOutputs).toBe(true);
    expect(() => loadConfig({ CHECK_OUTPUTS: "yes" })).toThrow(/CHECK_OUTPUTS/);
  });

  test("set to false, a response is sent as run returned it, unchecked", async () => {
    const server = await startTestServer({ appDir, env: { REDIS_URL: "", LOG_LEVEL: "fatal", CHECK_OUTPUTS: "false" } });
    try {
      const response = await fetch(`${server.url}/api/wrong`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ items: [{ id: 1 }, { id: "2" }] });
    } finally {
      await server.stop();
    }
  });
});

describe("the OpenAPI document", () => {
  test("an action's 200 response is its outputs as a client receives them", async () => {
    const document = (await get("/openapi.json")).body;
    const schema = document.paths["/api/author"].get.responses["200"].content["application/json"].schema;
    expect(schema.properties.author.properties.joinedAt).toEqual({ type: "string", format: "date-time" });
    expect(schema.properties.author.required).toEqual(["id", "name", "joinedAt", "apiToken"]);
    const list = document.paths["/api/list"].get.responses["200"].content["application/json"].schema;
    expect(list).toMatchObject({ type: "array", items: { type: "string" } });
  });

  test("a secret in outputs is described without its examples", async () => {
    const document = (await get("/openapi.json")).body;
    const token = document.paths["/api/author"].get.responses["200"].content["application/json"].schema.properties.author.properties.apiToken;
    expect(token).toEqual({ type: "string" });
    expect(JSON.stringify(document)).not.toContain("tok_live_123");
  });
});

describe("MCP", () => {
  test("a tool with outputs has an outputSchema: its object, or { result } around anything else", async () => {
    const { tools } = await mcp.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get("typed-author")!.outputSchema).toMatchObject({ type: "object", required: ["author"] });
    expect(byName.get("typed-list")!.outputSchema).toEqual({
      type: "object",
      properties: { result: { type: "array", items: { type: "string" } } },
      required: ["result"],
    });
  });

  test("structuredContent conforms to the outputSchema (the SDK client checks it) and the text holds the same data", async () => {
    const author = await mcp.callTool({ name: "typed-author", arguments: {} });
    expect(author.structuredContent).toEqual({ author: { id: 7, name: "Ada", joinedAt: "2026-01-02T00:00:00.000Z", apiToken: "tok_7" } });
    expect(JSON.parse((author.content as { text: string }[])[0]!.text)).toEqual(author.structuredContent);
    const list = await mcp.callTool({ name: "typed-list", arguments: { count: 2 } });
    expect(list.structuredContent).toEqual({ result: ["name 0", "name 1"] });
  });

  test("an error from a tool with an outputSchema is a tool error the client can show, not a schema failure", async () => {
    const result = await mcp.callTool({ name: "typed-wrong", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content as { text: string }[])[0]!.text).toBe(WRONG_MESSAGE);
  });
});
