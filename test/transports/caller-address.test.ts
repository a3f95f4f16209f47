import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { HeraldServer } from "herald";
import { startTestServer } from "herald/testing";
import WebSocket from "ws";

const APP = join(__dirname, "../fixtures/apps/caller-address");
const FORWARDED = { "X-Forwarded-For": "203.0.113.9, 198.51.100.7" };

async function overHttp(server: HeraldServer): Promise<unknown> {
  const response = await fetch(`${server.url}/api/caller`, { headers: FORWARDED });
  return ((await response.json()) as { remoteAddress: unknown }).remoteAddress;
}

async function overWebSocket(server: HeraldServer): Promise<unknown> {
  const ws = new WebSocket(`${server.url!.replace(/^http/, "ws")}/ws`, { headers: FORWARDED });
  try {
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const reply = new Promise<{ response?: { remoteAddress: unknown } }>((resolve) =>
      ws.on("message", (data) => {
        const message = JSON.parse(data.toString());
        if (message.messageId === "who") resolve(message);
      }),
    );
    ws.send(JSON.stringify({ messageType: "action", messageId: "who", action: "caller:show" }));
    return (await reply).response?.remoteAddress;
  } finally {
    ws.close();
  }
}

async function overMcp(server: HeraldServer): Promise<unknown> {
  const client = new Client({ name: "caller-address", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: FORWARDED } }));
  try {
    const result = await client.callTool({ name: "caller-show", arguments: {} });
    return (result.structuredContent as { remoteAddress: unknown }).remoteAddress;
  } finally {
    await client.close();
  }
}

async function withServer(env: Record<string, string>, check: (server: HeraldServer) => Promise<void>): Promise<void> {
  const server = await startTestServer({ appDir: APP, env: { REDIS_URL: "", ...env } });
  try {
    await check(server);
  } finally {
    await server.stop();
  }
}

describe("one caller address on every transport with a network peer", () => {
  test("trusting no proxy, HTTP, WebSocket and MCP calls carry the TCP peer, whatever X-Forwarded-For says", async () => {
    await withServer({}, async (server) => {
      expect(await overHttp(server)).toBe("127.0.0.1");
      expect(await overWebSocket(server)).toBe("127.0.0.1");
      expect(await overMcp(server)).toBe("127.0.0.1");
    });
  });

  test("behind a trusted proxy (HTTP_TRUST_PROXY=loopback), each carries the address the proxy forwarded", async () => {
    await withServer({ HTTP_TRUST_PROXY: "loopback" }, async (server) => {
      // 198.51.100.7 is the nearest hop past the trusted loopback peer, and it is not trusted itself.
      expect(await overHttp(server)).toBe("198.51.100.7");
      expect(await overWebSocket(server)).toBe("198.51.100.7");
      expect(await overMcp(server)).toBe("198.51.100.7");
    });
  });

  test("a hop count trusts that many proxies, counted from the server", async () => {
    await withServer({ HTTP_TRUST_PROXY: "2" }, async (server) => {
      expect(await overHttp(server)).toBe("203.0.113.9");
      expect(await overWebSocket(server)).toBe("203.0.113.9");
      expect(await overMcp(server)).toBe("203.0.113.9");
    });
  });
});
