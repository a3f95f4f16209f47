import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorType } from "herald";
import { serverUrl, useTestServer, waitFor } from "herald/testing";
import { gates } from "../../fixtures/apps/websocket/gates";
import { jsonLogs } from "../../support/json-logs";

const { stream: logDestination, lines: logs } = jsonLogs();
useTestServer({ appDir: join(__dirname, "../../fixtures/apps/websocket"), env: { REDIS_URL: "", LOG_LEVEL: "info", LOG_FORMAT: "json" }, logDestination });

test("a tool call the MCP client cancels (run ahead of the SDK) fires the action's signal as client gone, logged at info (499), not as a failure", async () => {
  const client = new Client({ name: "cancelling", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
  try {
    const cancel = new AbortController();
    const call = client.callTool({ name: "ws-gate", arguments: { gate: "mcp-cancelled" } }, undefined, { signal: cancel.signal });
    call.catch(() => undefined);
    await gates.entered("mcp-cancelled");
    cancel.abort("no longer needed");
    await expect(call).rejects.toThrow();

    expect(await gates.settled("mcp-cancelled")).toMatchObject({ outcome: "aborted", reason: { type: ErrorType.CONNECTION_CLIENT_GONE } });
    await waitFor(() => logs.some((line) => line.action === "ws:gate" && line.status === 499));
    expect(logs.find((line) => line.action === "ws:gate" && line.status === 499)).toMatchObject({ level: 30, msg: "client gone", connection: "mcp" });
    expect(logs.filter((line) => line.action === "ws:gate" && line.level >= 50)).toEqual([]);
  } finally {
    await client.close();
  }
});

test("a call the SDK runs (one that asked for progress) ends as client gone too when the client cancels it", async () => {
  const client = new Client({ name: "cancelling-with-progress", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
  try {
    const cancel = new AbortController();
    const call = client.callTool({ name: "ws-gate", arguments: { gate: "mcp-cancelled-sdk" } }, undefined, {
      signal: cancel.signal,
      onprogress: () => undefined,
    });
    call.catch(() => undefined);
    await gates.entered("mcp-cancelled-sdk");
    cancel.abort("no longer needed");
    await expect(call).rejects.toThrow();
    expect(await gates.settled("mcp-cancelled-sdk")).toMatchObject({ outcome: "aborted", reason: { type: ErrorType.CONNECTION_CLIENT_GONE } });
  } finally {
    await client.close();
  }
});

describe("a notifications/cancelled sent on a request of its own (how a 2025-era client cancels a stateless call)", () => {
  const post = (authorization: string, body: unknown) =>
    fetch(`${serverUrl()}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: authorization, "Mcp-Protocol-Version": "2025-11-25" },
      body: JSON.stringify(body),
    });
  const callGate = (gate: string) => post("Bearer owner", { jsonrpc: "2.0", id: `call-${gate}`, method: "tools/call", params: { name: "ws-gate", arguments: { gate } } });
  const cancel = (authorization: string, gate: string) =>
    post(authorization, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: `call-${gate}`, reason: "no longer needed" } });

  test("from the caller that made the call, aborts it as client gone", async () => {
    const call = callGate("mcp-own-cancel");
    await gates.entered("mcp-own-cancel");
    expect((await cancel("Bearer owner", "mcp-own-cancel")).status).toBe(202);
    expect(await gates.settled("mcp-own-cancel")).toMatchObject({ outcome: "aborted", reason: { type: ErrorType.CONNECTION_CLIENT_GONE } });
    await (await call).text();
  });

  test("from another caller (another Authorization), does not reach the call", async () => {
    const call = callGate("mcp-foreign-cancel");
    await gates.entered("mcp-foreign-cancel");
    expect((await cancel("Bearer someone-else", "mcp-foreign-cancel")).status).toBe(202);
    gates.open("mcp-foreign-cancel");
    expect(await gates.settled("mcp-foreign-cancel")).toMatchObject({ outcome: "opened" });
    expect(await (await call).text()).not.toContain('"isError":true');
  });
});
