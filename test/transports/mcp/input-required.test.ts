import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client, StreamableHTTPClientTransport, type ClientCapabilities, type InputRequiredResult } from "@modelcontextprotocol/client";
import { ErrorType } from "herald";
import { serverUrl, useTestServer, waitFor } from "herald/testing";
import { recorded } from "../../fixtures/apps/mcp-ask/recorded";
import { jsonLogs } from "../../support/json-logs";
import { TestSocket } from "../websocket/support/test-socket";

const { stream: logDestination, lines: logs } = jsonLogs();
useTestServer({ appDir: join(__dirname, "../../fixtures/apps/mcp-ask"), env: { LOG_LEVEL: "info", LOG_FORMAT: "json" }, logDestination });

const ALL: ClientCapabilities = { elicitation: {}, sampling: {}, roots: {} };

/** What the client's handlers were asked, in order. */
let asked: string[];

/** The v2 client pinned to 2026-07-28, answering whatever its capabilities allow from its own handlers. */
async function modernClient(capabilities: ClientCapabilities = ALL, options: { autoFulfill?: boolean; name?: string } = {}): Promise<Client> {
  const client = new Client(
    { name: "asked", version: "1.0.0" },
    { capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } }, inputRequired: { autoFulfill: options.autoFulfill ?? true } },
  );
  if (capabilities.elicitation) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const message = (request.params as { message: string }).message;
      asked.push(`form ${message}`);
      const content: Record<string, string | number> =
        message === "Which plan?" ? { tier: "pro" } : message.startsWith("How many seats") ? { seats: 3 } : { name: options.name ?? "Ada" };
      return { action: "accept", content };
    });
  }
  if (capabilities.sampling) {
    client.setRequestHandler("sampling/createMessage", async (request) => {
      asked.push(`sample ${request.params.maxTokens}`);
      return { role: "assistant", content: { type: "text", text: "A pro plan." }, model: "test-model", stopReason: "endTurn" };
    });
  }
  if (capabilities.roots) {
    client.setRequestHandler("roots/list", async () => {
      asked.push("roots");
      return { roots: [{ uri: "file:///work/app", name: "app" }] };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
  return client;
}

function structured(result: { structuredContent?: unknown }): unknown {
  return result.structuredContent;
}

beforeEach(() => {
  asked = [];
  recorded.length = 0;
});

describe("a 2026-07-28 client", () => {
  test("answers a form: the call returns once the retry brings the answer, and the action ran twice", async () => {
    const client = await modernClient();
    try {
      const result = await client.callTool({ name: "ask-greet", arguments: {} });
      expect(structured(result)).toEqual({ greeting: "Hello, Ada" });
      expect(asked).toEqual(["form Your name?"]);
      // The first round ended at ask: runAfter saw it; the retry ran from the start and answered.
      expect(recorded).toEqual(["before mcp", `after mcp ${ErrorType.CONNECTION_INPUT_REQUIRED}`, "before mcp", "after mcp ok"]);
      await waitFor(() => logs.filter((line) => line.action === "ask:greet").length >= 2);
      const lines = logs.filter((line) => line.action === "ask:greet");
      expect(lines.map((line) => [line.level, line.msg, line.status])).toEqual([
        [30, "input required", 422],
        [30, "action", 200],
      ]);
    } finally {
      await client.close();
    }
  });

  test("answers a form, a sample of its model and its roots asked at once", async () => {
    const client = await modernClient();
    try {
      const result = await client.callTool({ name: "ask-everything", arguments: {} });
      expect(structured(result)).toEqual({ tier: "pro", summary: "A pro plan.", roots: ["file:///work/app"] });
      expect(asked.sort()).toEqual(["form Which plan?", "roots", "sample 20"]);
    } finally {
      await client.close();
    }
  });

  test("answers two rounds: the second question comes from the first answer, the first is not asked again", async () => {
    const client = await modernClient();
    try {
      const result = await client.callTool({ name: "ask-rounds", arguments: {} });
      expect(structured(result)).toEqual({ tier: "pro", seats: 3 });
      expect(asked).toEqual(["form Which plan?", "form How many seats on pro?"]);
    } finally {
      await client.close();
    }
  });

  test("content its schema refuses is asked for again, in a new round", async () => {
    const client = await modernClient(ALL, { autoFulfill: false });
    try {
      const first = (await client.callTool({ name: "ask-greet", arguments: {} }, { allowInputRequired: true })) as unknown as InputRequiredResult;
      expect(Object.keys(first.inputRequests ?? {})).toEqual(["who"]);
      const retry = { name: "ask-greet", arguments: {}, inputResponses: { who: { action: "accept", content: { name: "A" } } }, requestState: first.requestState };
      const second = (await client.callTool(retry, { allowInputRequired: true })) as unknown as InputRequiredResult;
      expect(second.resultType).toBe("input_required");
      expect(Object.keys(second.inputRequests ?? {})).toEqual(["who"]);
    } finally {
      await client.close();
    }
  });

  test("a tampered requestState is refused before the action runs (-32602)", async () => {
    const client = await modernClient(ALL, { autoFulfill: false });
    try {
      const first = (await client.callTool({ name: "ask-greet", arguments: {} }, { allowInputRequired: true })) as unknown as InputRequiredResult;
      expect(first).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
      recorded.length = 0;
      const tampered = {
        name: "ask-greet",
        arguments: {},
        inputResponses: { who: { action: "accept", content: { name: "Eve" } } },
        requestState: `${first.requestState}x`,
      };
      await expect(client.callTool(tampered, { allowInputRequired: true })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Invalid or expired requestState") });
      expect(recorded).toEqual([]);
    } finally {
      await client.close();
    }
  });

  test("a state another action's questions left is refused for this one", async () => {
    const client = await modernClient(ALL, { autoFulfill: false });
    try {
      const other = (await client.callTool({ name: "ask-rounds", arguments: {} }, { allowInputRequired: true })) as unknown as InputRequiredResult;
      const misused = { name: "ask-greet", arguments: {}, inputResponses: { who: { action: "accept", content: { name: "Eve" } } }, requestState: other.requestState };
      await expect(client.callTool(misused, { allowInputRequired: true })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });

  test("a client that did not declare sampling is refused with -32021 naming it, over HTTP 400", async () => {
    const client = await modernClient({ elicitation: {}, roots: {} });
    try {
      await expect(client.callTool({ name: "ask-everything", arguments: {} })).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { sampling: {} } },
      });
    } finally {
      await client.close();
    }
    const response = await fetch(`${serverUrl()}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "ask-everything" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: {
          name: "ask-everything",
          arguments: {},
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } },
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 9, error: { code: -32021 } });
  });
});

test("a 2025-era client cannot be asked: the tool error is the 422 naming the keys", async () => {
  const client = new ClientV1({ name: "legacy", version: "1.0.0" }, { capabilities: { elicitation: {}, sampling: {} } });
  await client.connect(new HttpTransportV1(new URL(`${serverUrl()}/mcp`)));
  try {
    const result = await client.callTool({ name: "ask-everything", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { type: ErrorType.CONNECTION_INPUT_REQUIRED, key: "input", value: { keys: ["plan", "summary", "where"] } },
    });
  } finally {
    await client.close();
  }
});

describe("transports that cannot ask refuse with 422 naming the keys", () => {
  test("HTTP", async () => {
    const response = await fetch(`${serverUrl()}/api/greet`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { type: string; value: unknown; message: string } };
    expect(body.error).toMatchObject({ type: ErrorType.CONNECTION_INPUT_REQUIRED, value: { keys: ["who"] } });
    expect(body.error.message).toContain("over web");
    expect(recorded).toEqual(["before web", `after web ${ErrorType.CONNECTION_INPUT_REQUIRED}`]);
  });

  test("WebSocket", async () => {
    const socket = await TestSocket.open();
    try {
      const reply = await socket.action("ask:greet");
      expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_INPUT_REQUIRED, value: { keys: ["who"] } });
    } finally {
      await socket.close();
    }
  });
});
