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
