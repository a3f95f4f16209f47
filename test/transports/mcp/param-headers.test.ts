import { join } from "node:path";
import { serverUrl, useTestServer } from "herald/testing";

/**
 * SEP-2243's custom headers: a tool input annotated `x-mcp-header` is mirrored by 2026-07-28
 * clients into `Mcp-Param-<Name>` (as it is, or `=?base64?…?=`), which must agree with the body.
 * And SEP-1613: a tool's input schema keeps the JSON Schema 2020-12 vocabulary its action declares.
 */
useTestServer({ appDir: join(__dirname, "../../fixtures/apps/mcp-conformance"), env: { LOG_LEVEL: "fatal", REDIS_URL: "" } });

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "params", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

function callWithRegion(region: string, headers: Record<string, string>, version = "2026-07-28") {
  const params = { name: "test_custom_header", arguments: { region }, ...(version === "2026-07-28" ? { _meta: META } : {}) };
  return fetch(`${serverUrl()}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": version,
      ...(version === "2026-07-28" ? { "mcp-method": "tools/call", "mcp-name": "test_custom_header" } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params }),
  });
}

const base64 = (text: string) => `=?base64?${Buffer.from(text).toString("base64")}?=`;

test("tools/list shows the annotation, so clients know to send the header", async () => {
  const answer = await fetch(`${serverUrl()}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }),
  });
  const { result } = (await answer.json()) as { result: { tools: { name: string; inputSchema: Record<string, any> }[] } };
  const tools = Object.fromEntries(result.tools.map((tool) => [tool.name, tool.inputSchema]));
  expect(tools.test_custom_header!.properties.region["x-mcp-header"]).toBe("Region");
  // SEP-1613 and SEP-2106: the declared dialect and the vocabulary beyond what zod validates are kept.
  expect(tools.json_schema_2020_12_tool).toMatchObject({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $defs: { address: { $anchor: "addressDef" } },
    additionalProperties: false,
    allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
    if: { required: ["contactMethod"] },
    then: { required: ["phone"] },
    else: { required: ["email"] },
  });
  // A tool whose inputs declare no dialect gets none: 2020-12 is the default.
  expect(tools.slow_compute).not.toHaveProperty("$schema");
});

test.each([
  ["as it is", "Paris", "Paris"],
  ["in Base64", "Zürich", base64("Zürich")],
])("a header that agrees with the body, %s, is served", async (_how, region, header) => {
  const answer = await callWithRegion(region, { "mcp-param-region": header });
  expect(answer.status).toBe(200);
  expect(await answer.text()).toContain(`from ${region}`);
});

test.each([
  ["missing", {}],
  ["another value", { "mcp-param-region": "Lyon" }],
  ["Base64 without its padding", { "mcp-param-region": "=?base64?UGFyaXM?=" }],
  ["Base64 with characters outside its alphabet", { "mcp-param-region": "=?base64?UGF!!yaXM=?=" }],
])("a header %s is refused 400 with JSON-RPC -32020, naming it", async (_how, headers) => {
  const answer = await callWithRegion("Paris", headers);
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({ id: 3, error: { code: -32020, data: { mismatch: { header: "Mcp-Param-Region" } } } });
});

test("a 2025-era client, which has no such headers, is not asked for them", async () => {
  const answer = await callWithRegion("Paris", {}, "2025-11-25");
  expect(answer.status).toBe(200);
});
