import { connect as connectSocket } from "node:net";
import { join } from "node:path";
import { serverUrl, useTestServer } from "herald/testing";

/** The MCP endpoint's body is read as an action's is: the same limit and params bounds, checked before the SDK sees it. */
useTestServer({ appDir: join(__dirname, "../../fixtures/apps/mcp"), env: { HTTP_BODY_LIMIT: "64kb", PARAMS_MAX_KEYS: "100" } });

const HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const post = (body: string) => fetch(`${serverUrl()}/mcp`, { method: "POST", headers: HEADERS, body });

test("a JSON-RPC message of more keys than PARAMS_MAX_KEYS is Herald's typed 413, before the SDK parses it", async () => {
  const args = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, index]));
  const response = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "math-add", arguments: args } }));
  expect(response.status).toBe(413);
  expect((await response.json()).error).toMatchObject({ type: "CONNECTION_PAYLOAD_TOO_LARGE", key: "params" });
});

test("malformed JSON is Herald's typed 400; a batch (a JSON array) reaches the MCP endpoint, which answers it", async () => {
  const malformed = await post("{");
  expect(malformed.status).toBe(400);
  expect((await malformed.json()).error.type).toBe("CONNECTION_ACTION_PARAM_FORMATTING");
  const batch = await post(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]));
  expect(batch.status).toBe(200);
  expect(await batch.text()).toContain('"math-add"');
});

test("a batch under a revision without batches (2025-06-18 and later) is refused -32600, as the specification removed them", async () => {
  for (const version of ["2025-06-18", "2025-11-25", "2026-07-28"]) {
    const response = await fetch(`${serverUrl()}/mcp`, {
      method: "POST",
      headers: { ...HEADERS, "MCP-Protocol-Version": version },
      body: JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining(`MCP ${version} has no JSON-RPC batches`) } });
  }
});

test("a JSON-RPC id longer than 256 characters is refused -32600 without being echoed; one of 256 is answered", async () => {
  const refused = await post(JSON.stringify({ jsonrpc: "2.0", id: "x".repeat(257), method: "tools/list" }));
  expect(refused.status).toBe(400);
  const text = await refused.text();
  expect(text).not.toContain("x".repeat(257));
  expect(JSON.parse(text)).toMatchObject({ id: null, error: { code: -32600, message: "A JSON-RPC id is at most 256 characters" } });
  const inBatch = await post(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }, { jsonrpc: "2.0", id: "y".repeat(10_000), method: "tools/list" }]));
  expect(inBatch.status).toBe(400);
  const answered = await post(JSON.stringify({ jsonrpc: "2.0", id: "z".repeat(256), method: "tools/list" }));
  expect(answered.status).toBe(200);
  expect(await answered.text()).toContain("z".repeat(256));
});

test("a chunked body is answered 413 with Connection: close as it crosses the limit, while it is still being sent", async () => {
  const { hostname, port } = new URL(serverUrl());
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connectSocket(Number(port), hostname);
    const chunk = Buffer.alloc(16 * 1024, "a");
    let text = "";
    let sent = 0;
    // Never ends the body: the answer can only come from the limit.
    const pump = () => {
      while (!text && sent < 16 * chunk.length) {
        sent += chunk.length;
        if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once("drain", pump);
      }
    };
    socket.on("connect", () => {
      socket.write(`POST /mcp HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n`);
      socket.write(`1\r\n"\r\n`);
      pump();
    });
    socket.on("data", (data) => {
      text += data.toString("latin1");
      if (/\r\n\r\n[\s\S]*\}\}/.test(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on("error", reject);
  });
  expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  expect(answer).toContain('"type":"CONNECTION_PAYLOAD_TOO_LARGE"');
});

test("a Content-Length over the limit is 413 before the body is read", async () => {
  const response = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(70 * 1024) } }));
  expect(response.status).toBe(413);
  expect((await response.json()).error.type).toBe("CONNECTION_PAYLOAD_TOO_LARGE");
});
