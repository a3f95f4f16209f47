import { join } from "node:path";
import { serverUrl, useTestServer } from "herald/testing";

/**
 * MCP 2026-07-28's routing headers (SEP-2243): a POST's `Mcp-Method` and `Mcp-Name` mirror its
 * body for intermediaries; a header the body contradicts is refused, and a browser on an allowed
 * origin may send them.
 */
const ORIGIN = "https://app.example";
useTestServer({ appDir: join(__dirname, "../../fixtures/apps/mcp"), env: { LOG_LEVEL: "fatal", HTTP_CORS_ORIGINS: ORIGIN, MCP_ALLOWED_ORIGINS: ORIGIN } });

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "routing", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

function callTool(headers: Record<string, string>) {
  return fetch(`${serverUrl()}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "math-add", arguments: { a: 1, b: 2 }, _meta: META } }),
  });
}

test("headers that match the body are served", async () => {
  const answer = await callTool({ "mcp-method": "tools/call", "mcp-name": "math-add" });
  expect(answer.status).toBe(200);
});

test.each([
  ["Mcp-Method", { "mcp-method": "tools/list", "mcp-name": "math-add" }],
  ["Mcp-Name", { "mcp-method": "tools/call", "mcp-name": "math-subtract" }],
])("an %s the body contradicts is refused 400 with JSON-RPC -32020 (HeaderMismatch)", async (_header, headers) => {
  const answer = await callTool(headers);
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({ id: 1, error: { code: -32020 } });
});

test("a browser on an allowed origin may send them: the preflight allows Mcp-Method, Mcp-Name and MCP-Protocol-Version", async () => {
  const preflight = await fetch(`${serverUrl()}/mcp`, {
    method: "OPTIONS",
    headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "content-type, mcp-method, mcp-name, mcp-protocol-version" },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type, mcp-method, mcp-name, mcp-protocol-version");
});
