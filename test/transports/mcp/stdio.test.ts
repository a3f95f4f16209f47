import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { HERALD_BIN } from "../../support/cli";

const cwd = join(__dirname, "../../fixtures/apps/mcp");

test("herald mcp serves the app over stdio, logs kept off stdout", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [HERALD_BIN, "mcp"],
    cwd,
    env: { ...(process.env as Record<string, string>), NODE_ENV: "test", LOG_LEVEL: "info" },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["math-add", "report-weekly"]));
    // No one can sign in over stdio: a tool whose middleware declares it refuses anonymous callers is not offered.
    expect(tools.map((tool) => tool.name)).not.toContain("secure-data");
    expect(await client.callTool({ name: "secure-data", arguments: {} }).catch((error: Error) => error.message)).toMatch(/Unknown tool "secure-data"/);
    const result = await client.callTool({ name: "math-add", arguments: { a: 1, b: 2 } });
    expect(result.structuredContent).toEqual({ sum: 3 });
    const invalid = await client.callTool({ name: "math-add", arguments: { a: 1 } });
    expect(invalid.isError).toBe(true);
    const prompt = await client.getPrompt({ name: "prompt-review", arguments: { topic: "stdio" } });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Please review stdio carefully." });
  } finally {
    await client.close();
  }
  // The action log went to stderr: a protocol stream polluted by logs would have failed above.
  expect(stderr).toContain("math:add");
});

test.each([
  ["2026-07-28", { pin: "2026-07-28" }],
  ["2025-11-25", "legacy"],
] as const)("herald mcp serves a v2 client speaking %s over stdio", async (version, mode) => {
  const transport = new StdioV2({
    command: process.execPath,
    args: [HERALD_BIN, "mcp"],
    cwd,
    env: { ...(process.env as Record<string, string>), NODE_ENV: "test", LOG_LEVEL: "warn" },
    stderr: "ignore",
  });
  const client = new ClientV2({ name: "stdio-v2", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(transport);
  try {
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    expect((await client.callTool({ name: "math-add", arguments: { a: 2, b: 40 } })).structuredContent).toEqual({ sum: 42 });
    expect((await client.readResource({ uri: "herald://motd" })).contents[0]).toMatchObject({ text: "Be kind." });
  } finally {
    await client.close();
  }
});

test("herald mcp asks a 2026-07-28 client over stdio, and refuses a 2025-era one with the 422", async () => {
  const start = () =>
    new StdioV2({
      command: process.execPath,
      args: [HERALD_BIN, "mcp"],
      cwd: join(__dirname, "../../fixtures/apps/mcp-ask"),
      env: { ...(process.env as Record<string, string>), NODE_ENV: "production", SESSION_SECRET: "s".repeat(32), LOG_LEVEL: "warn" },
      stderr: "ignore",
    });
  // In production too: one process answers every round over stdio, so it needs no configured key.
  const modern = new ClientV2({ name: "stdio-asked", version: "1.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  modern.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }));
  await modern.connect(start());
  try {
    expect((await modern.callTool({ name: "ask-greet", arguments: {} })).structuredContent).toEqual({ greeting: "Hello, Ada" });
  } finally {
    await modern.close();
  }
  const legacy = new ClientV2({ name: "stdio-legacy", version: "1.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: "legacy" } });
  legacy.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }));
  await legacy.connect(start());
  try {
    const refused = await legacy.callTool({ name: "ask-greet", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: { type: "CONNECTION_INPUT_REQUIRED", value: { keys: ["who"] } } });
  } finally {
    await legacy.close();
  }
});
