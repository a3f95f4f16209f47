import { request as httpRequest } from "node:http";
import { join } from "node:path";
import type { HeraldServer } from "herald";
import { startTestServer } from "herald/testing";

const MCP_APP = join(__dirname, "../../fixtures/apps/mcp");

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "host-check", version: "1.0.0" } },
};

/** The status of an `initialize` POST carrying `headers`; node:http, since fetch may not set Host. */
function initializeStatus(server: HeraldServer, headers: Record<string, string>): Promise<number> {
  const { port } = new URL(server.url!);
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: "127.0.0.1",
      port,
      path: "/mcp",
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    });
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on("error", reject);
    request.end(JSON.stringify(initialize));
  });
}

/** A production server on every interface (HOST unset), as deployed. */
async function withProductionServer(env: Record<string, string>, check: (server: HeraldServer) => Promise<void>): Promise<void> {
  const server = await startTestServer({
    appDir: MCP_APP,
    env: { NODE_ENV: "production", HOST: "", SESSION_SECRET: "host-check-session-secret-of-32-characters", REDIS_URL: "", LOG_LEVEL: "fatal", ...env },
  });
  try {
    await check(server);
  } finally {
    await server.stop();
  }
}

describe("the MCP endpoint's Host check in production, bound to every interface", () => {
  test("refuses a foreign Host and admits PUBLIC_URL's host, its origin, and the loopback names", async () => {
    await withProductionServer({ PUBLIC_URL: "https://mcp.example.com" }, async (server) => {
      expect(await initializeStatus(server, { Host: "evil.example" })).toBe(403);
      expect(await initializeStatus(server, { Host: "mcp.example.com" })).toBe(200);
      expect(await initializeStatus(server, { Host: "mcp.example.com", Origin: "https://mcp.example.com" })).toBe(200);
      expect(await initializeStatus(server, { Host: "mcp.example.com", Origin: "https://evil.example" })).toBe(403);
      expect(await initializeStatus(server, { Host: "localhost" })).toBe(200);
    });
  });

  test("without PUBLIC_URL or MCP_ALLOWED_HOSTS only the loopback names are admitted", async () => {
    await withProductionServer({}, async (server) => {
      expect(await initializeStatus(server, { Host: "evil.example" })).toBe(403);
      expect(await initializeStatus(server, { Host: "127.0.0.1" })).toBe(200);
    });
  });

  test("MCP_ALLOWED_HOSTS=* turns the Host check off, for a proxy that checks it itself", async () => {
    await withProductionServer({ MCP_ALLOWED_HOSTS: "*" }, async (server) => {
      expect(await initializeStatus(server, { Host: "anything.example" })).toBe(200);
    });
  });
});
