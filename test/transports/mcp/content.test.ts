import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { mcpContent } from "herald";
import { serverUrl, useTestServer } from "herald/testing";
import type { ActionDefinition } from "../../../src/core/action";
import { rootContainer } from "../../../src/core/container";
import { encodeResponse } from "../../../src/core/response-encoder";
import { ActionRegistry } from "../../../src/core/registry";
import { McpCatalog } from "../../../src/transports/mcp/catalog";
import { PNG } from "../../fixtures/apps/mcp-conformance/actions/media";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/mcp-conformance") });

let client: Client;
beforeAll(async () => {
  client = new Client({ name: "content", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
});
afterAll(() => client?.close());

test("mcp.name names the tool and the prompt, instead of the action's name", async () => {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain("test_simple_text");
  const { prompts } = await client.listPrompts();
  expect(prompts.map((prompt) => prompt.name)).toContain("test_simple_prompt");
});

test("an McpContent response is the tool result's content blocks: image, audio, embedded resource", async () => {
  const mixed = await client.callTool({ name: "test_multiple_content_types", arguments: {} });
  expect(mixed.content).toEqual([
    { type: "text", text: "Multiple content types test:" },
    { type: "image", data: PNG.toString("base64"), mimeType: "image/png" },
    { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' } },
  ]);
  expect(mixed.structuredContent).toBeUndefined();
  const audio = await client.callTool({ name: "test_audio_content", arguments: {} });
  expect(audio.content).toEqual([expect.objectContaining({ type: "audio", mimeType: "audio/wav" })]);
});

test("over every other transport an McpContent is its JSON, { content: [...] }", () => {
  const response = mcpContent.of(mcpContent.text("hi"), mcpContent.image(Buffer.from([1, 2, 3]), "image/png"));
  expect(JSON.parse(encodeResponse("media:show", response))).toEqual({
    content: [
      { type: "text", text: "hi" },
      { type: "image", data: "AQID", mimeType: "image/png" },
    ],
  });
});

test("a resource action that returns bytes is a binary resource: a base64 blob", async () => {
  const read = await client.readResource({ uri: "test://static-binary" });
  expect(read.contents).toEqual([{ uri: "test://static-binary", mimeType: "image/png", blob: PNG.toString("base64") }]);
});

test("connection.reportLog reaches a 2025-era client as notifications/message, on the call's own stream", async () => {
  const messages: { level: string; data: unknown }[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void messages.push(notification.params));
  await client.callTool({ name: "test_tool_with_logging", arguments: {} });
  expect(messages).toEqual([
    { level: "info", data: "Tool execution started" },
    { level: "info", data: "Tool processing data" },
    { level: "info", data: "Tool execution completed" },
  ]);
});

test("a prompt's messages may carry images and embedded resources", async () => {
  const prompt = await client.getPrompt({ name: "test_prompt_with_embedded_resource", arguments: { resourceUri: "test://example-resource" } });
  expect(prompt.messages[0]!.content).toEqual({ type: "resource", resource: { uri: "test://example-resource", mimeType: "text/plain", text: "Embedded resource content for testing." } });
});

test("an mcp.name that MCP does not allow stops the boot, naming the action", () => {
  const registry = new ActionRegistry(rootContainer.createChildContainer());
  registry.add({ name: "report:send", mcp: { name: "send report!" }, run: async () => null } as ActionDefinition, "actions/report.ts");
  expect(() => new McpCatalog(registry.list())).toThrow('Action "report:send": mcp.name "send report!" is not an MCP name');
});

test("a 2026-07-28 client gets log messages at or above the level its request names, and none without one", async () => {
  const modern = new ModernClient({ name: "modern-logs", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await modern.connect(new ModernTransport(new URL(`${serverUrl()}/mcp`)));
  try {
    const messages: unknown[] = [];
    modern.setNotificationHandler("notifications/message", (notification) => void messages.push(notification.params.data));
    await modern.callTool({ name: "test_logging_tool", arguments: {} });
    expect(messages).toEqual([]);
    await modern.callTool({ name: "test_logging_tool", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "info" } });
    expect(messages).toEqual(["logged"]);
    await modern.callTool({ name: "test_logging_tool", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "error" } });
    expect(messages).toEqual(["logged"]);
  } finally {
    await modern.close();
  }
});
