import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serverUrl, useTestServer } from "herald/testing";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/mcp"), env: { MCP_MODE: "stateless" } });

test("stateless mode serves every request with its own server: no session id, calls still work", async () => {
  const transport = new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`));
  const client = new Client({ name: "stateless-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    expect(transport.sessionId).toBeUndefined();
    const result = await client.callTool({ name: "math-add", arguments: { a: 20, b: 22 } });
    expect(result.structuredContent).toEqual({ sum: 42 });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["dashboard-show", "math-add", "math-count", "report-weekly", "secure-data", "status"]);
  } finally {
    await client.close();
  }
});
