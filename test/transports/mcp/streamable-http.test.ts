import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MCP_APP_MIME_TYPE } from "herald";
import { serverUrl, useTestServer } from "herald/testing";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/mcp") });

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "herald-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`), { requestInit: { headers } }));
  return client;
}

let client: Client;
beforeAll(async () => {
  client = await connect();
});
afterAll(async () => {
  await client?.close();
});

test("lists every action with mcp.tool as a tool, ':' mapped to '-', with its input schema", async () => {
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  expect([...names].sort()).toEqual(["dashboard-show", "math-add", "math-count", "report-weekly", "secure-data", "status"]);
  const add = tools.find((tool) => tool.name === "math-add")!;
  expect(add.description).toBe("Adds two numbers");
  expect(add.inputSchema).toMatchObject({
    type: "object",
    properties: { a: { type: "number", description: "First addend" }, b: { type: "number" } },
    required: ["a", "b"],
  });
});

test("a tool call runs the action: structured content plus the JSON as text", async () => {
  const result = await client.callTool({ name: "math-add", arguments: { a: 2, b: 3 } });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toEqual({ sum: 5 });
  expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({ sum: 5 });
});

test("a validation error is isError with the core error body, naming the bad fields", async () => {
  const result = await client.callTool({ name: "math-add", arguments: { a: "two" } });
  expect(result.isError).toBe(true);
  const body = result.structuredContent as { error: { type: string; issues: { path: string[] }[] } };
  expect(body.error.type).toBe("CONNECTION_ACTION_PARAM_VALIDATION");
  expect(body.error.issues.map((issue) => issue.path[0])).toEqual(["a", "b"]);
  expect((result.content as { text: string }[])[0]!.text).toMatch(/- a: .*\n- b: /);
});

test("MARKDOWN format renders the response as Markdown", async () => {
  const result = await client.callTool({ name: "report-weekly", arguments: {} });
  const text = (result.content as { text: string }[])[0]!.text;
  expect(text).toContain("- **title**: Week 47");
  expect(text).toContain("| day | sales |");
  expect(text).toContain("| Tue | 5 |");
});

test("middleware guards tools: a refusal no token can cure is a tool error result the client can show, not an HTTP error", async () => {
  const refused = await client.callTool({ name: "secure-data", arguments: {} });
  expect(refused.isError).toBe(true);
  expect(refused.structuredContent).toMatchObject({ error: { type: "CONNECTION_NOT_AUTHENTICATED", message: "A valid bearer token is required" } });
  expect((refused.content as { text: string }[])[0]!.text).toBe("A valid bearer token is required");
});

test("a valid bearer token passes the same middleware", async () => {
  const authorized = await connect({ Authorization: "Bearer letmein" });
  try {
    const allowed = await authorized.callTool({ name: "secure-data", arguments: {} });
    expect(allowed.structuredContent).toEqual({ secret: "the cake" });
  } finally {
    await authorized.close();
  }
});

test("progress is sent as MCP progress notifications when the client asks for it", async () => {
  const updates: { progress: number; total?: number }[] = [];
  const result = await client.callTool({ name: "math-count", arguments: { to: 3 } }, undefined, {
    onprogress: (progress) => updates.push(progress),
  });
  expect(result.structuredContent).toEqual({ counted: 3 });
  expect(updates.map((update) => update.progress)).toEqual([1, 2, 3]);
  expect(updates[0]).toMatchObject({ total: 3, message: "step 1" });
});

test("resources: fixed URIs, templates from inputs, and reading runs the action", async () => {
  const { resources } = await client.listResources();
  expect(resources).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ uri: "herald://motd", name: "server:motd", mimeType: "text/plain" }),
      expect.objectContaining({ uri: "ui://herald/dashboard", mimeType: MCP_APP_MIME_TYPE }),
    ]),
  );
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: "herald://action/user:card{?id}", name: "user:card" })]);

  const motd = await client.readResource({ uri: "herald://motd" });
  expect(motd.contents[0]).toMatchObject({ uri: "herald://motd", text: "Be kind." });
  const card = await client.readResource({ uri: "herald://action/user:card?id=7" });
  expect(JSON.parse((card.contents[0] as { text: string }).text)).toEqual({ id: 7, name: "User 7" });
  await expect(client.readResource({ uri: "herald://action/user:card?id=404" })).rejects.toThrow("No user 404");
  await expect(client.readResource({ uri: "herald://nothing" })).rejects.toThrow(/Unknown resource/);
});

test("an MCP App: the UI resource has the app MIME type and the tool links to it", async () => {
  const { tools } = await client.listTools();
  expect(tools.find((tool) => tool.name === "dashboard-show")?._meta).toMatchObject({ ui: { resourceUri: "ui://herald/dashboard" } });
  const app = await client.readResource({ uri: "ui://herald/dashboard" });
  expect(app.contents[0]).toMatchObject({ mimeType: MCP_APP_MIME_TYPE, text: "<!doctype html><h1>Dashboard</h1>" });
});

test("prompts: arguments are the inputs, messages are what run returns", async () => {
  const { prompts } = await client.listPrompts();
  expect(prompts).toEqual([
    expect.objectContaining({
      name: "prompt-review",
      arguments: [
        { name: "topic", description: "What to review", required: true },
        { name: "tone", description: "How to say it", required: false },
      ],
    }),
  ]);
  const prompt = await client.getPrompt({ name: "prompt-review", arguments: { topic: "the parser" } });
  expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Please review the parser carefully." } }]);
});

describe("stateless over HTTP", () => {
  const post = (headers: Record<string, string>, body: unknown) =>
    fetch(`${serverUrl()}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
  const initialize = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
  });

  test("initialize opens no session: no Mcp-Session-Id, and a request without one is served", async () => {
    for (let id = 1; id <= 50; id++) {
      const response = await post({}, initialize(id));
      expect(response.status).toBe(200);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      await response.text();
    }
    const listed = await post({ "Mcp-Protocol-Version": "2025-11-25" }, { jsonrpc: "2.0", id: 51, method: "tools/list" });
    expect(await listed.text()).toContain('"math-add"');
  });

  test("GET and DELETE, the 2025 session operations, are 405", async () => {
    expect((await fetch(`${serverUrl()}/mcp`, { headers: { Accept: "text/event-stream" } })).status).toBe(405);
    expect((await fetch(`${serverUrl()}/mcp`, { method: "DELETE" })).status).toBe(405);
  });

  test("a JSON-RPC error carries the request's id", async () => {
    const response = await post({ "Mcp-Protocol-Version": "2025-11-25" }, { jsonrpc: "2.0", id: 77, method: "no/such-method" });
    expect(await response.text()).toContain('{"jsonrpc":"2.0","id":77,"error":{"code":-32601');
  });

  test("a foreign Host or Origin is refused against DNS rebinding, the refusal carrying the request's id", async () => {
    // fetch may not set Host, so these requests go through node:http.
    const answer = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(`${serverUrl()}/mcp`, { method: "POST", headers: { "Content-Type": "application/json", ...headers } });
        request.on("response", (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, body }));
        });
        request.on("error", reject);
        request.end(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/list" }));
      });
    for (const headers of [{ Host: "evil.example" }, { Origin: "http://evil.example" }] as Record<string, string>[]) {
      const { status, body } = await answer(headers);
      expect(status).toBe(403);
      expect(JSON.parse(body)).toMatchObject({ jsonrpc: "2.0", id: 5, error: { code: -32000 } });
    }
  });
});
