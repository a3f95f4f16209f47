import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serverUrl, useTestServer } from "herald/testing";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/mcp") });

/** What every client below does, whatever protocol generation it speaks. */
interface McpPeer {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(request: { name: string; arguments?: Record<string, unknown> }): Promise<{ isError?: boolean; structuredContent?: unknown }>;
  /** The v1 client takes a result schema before the options, the v2 client does not. */
  callWithProgress(
    request: { name: string; arguments?: Record<string, unknown> },
    onprogress: (progress: { progress: number }) => void,
  ): Promise<{ isError?: boolean; structuredContent?: unknown }>;
  readResource(request: { uri: string }): Promise<{ contents: { uri: string; text?: string }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  getPrompt(request: { name: string; arguments?: Record<string, string> }): Promise<{ messages: { content: unknown }[] }>;
  close(): Promise<void>;
}

const CLIENTS: [string, string, () => Promise<{ peer: McpPeer; protocolVersion: () => string | undefined }>][] = [
  [
    "the v1 SDK client",
    "2025-11-25",
    async () => {
      const transport = new HttpTransportV1(new URL(`${serverUrl()}/mcp`));
      const client = new ClientV1({ name: "interop-v1", version: "1.0.0" });
      await client.connect(transport);
      const peer = Object.assign(client, {
        callWithProgress: (request: Parameters<McpPeer["callTool"]>[0], onprogress: (progress: { progress: number }) => void) =>
          client.callTool(request, undefined, { onprogress }),
      });
      return { peer: peer as unknown as McpPeer, protocolVersion: () => transport.protocolVersion };
    },
  ],
  ...(
    [
      ["the v2 client, 2025-era handshake", "2025-11-25", { mode: "legacy" }],
      ["the v2 client, automatic negotiation", "2026-07-28", { mode: "auto" }],
      ["the v2 client pinned to 2026-07-28", "2026-07-28", { mode: { pin: "2026-07-28" } }],
    ] as const
  ).map(([name, version, versionNegotiation]) => [
    name,
    version,
    async () => {
      const client = new Client({ name: "interop-v2", version: "1.0.0" }, { versionNegotiation });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
      const peer = Object.assign(client, {
        callWithProgress: (request: Parameters<McpPeer["callTool"]>[0], onprogress: (progress: { progress: number }) => void) =>
          client.callTool(request, { onprogress }),
      });
      return { peer: peer as unknown as McpPeer, protocolVersion: () => client.getNegotiatedProtocolVersion() };
    },
  ] as [string, string, () => Promise<{ peer: McpPeer; protocolVersion: () => string | undefined }>]),
];

describe.each(CLIENTS)("%s", (_name, expectedVersion, connect) => {
  let peer: McpPeer;
  let protocolVersion: () => string | undefined;
  beforeAll(async () => {
    ({ peer, protocolVersion } = await connect());
  });
  afterAll(() => peer?.close());

  test(`speaks ${expectedVersion} with the one endpoint`, () => {
    expect(protocolVersion()).toBe(expectedVersion);
  });

  test("lists and calls tools; a refusal is a tool error result", async () => {
    const { tools } = await peer.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["math-add", "secure-data"]));
    expect((await peer.callTool({ name: "math-add", arguments: { a: 20, b: 22 } })).structuredContent).toEqual({ sum: 42 });
    const refused = await peer.callTool({ name: "secure-data", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused)).toContain("CONNECTION_NOT_AUTHENTICATED");
  });

  test("progress reaches the caller on the request's own stream", async () => {
    const updates: number[] = [];
    const result = await peer.callWithProgress({ name: "math-count", arguments: { to: 3 } }, (progress) => updates.push(progress.progress));
    expect(result.structuredContent).toEqual({ counted: 3 });
    expect(updates).toEqual([1, 2, 3]);
  });

  test("reads resources and resource templates", async () => {
    expect((await peer.readResource({ uri: "herald://motd" })).contents[0]).toMatchObject({ uri: "herald://motd", text: "Be kind." });
    const { resourceTemplates } = await peer.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain("herald://action/user:card{?id}");
    const card = await peer.readResource({ uri: "herald://action/user:card?id=7" });
    expect(JSON.parse(card.contents[0]!.text!)).toEqual({ id: 7, name: "User 7" });
  });

  test("gets prompts", async () => {
    const prompt = await peer.getPrompt({ name: "prompt-review", arguments: { topic: "the parser" } });
    expect(prompt.messages[0]!.content).toEqual({ type: "text", text: "Please review the parser carefully." });
  });
});
