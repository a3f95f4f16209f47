import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serverUrl, useTestServer } from "herald/testing";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/mcp") });

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

let legacy: ClientV1;
let modern: Client;
beforeAll(async () => {
  legacy = new ClientV1({ name: "features-v1", version: "1.0.0" });
  await legacy.connect(new HttpTransportV1(new URL(`${serverUrl()}/mcp`)));
  modern = new Client({ name: "features-v2", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await modern.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
});
afterAll(async () => {
  await legacy?.close();
  await modern?.close();
});

test("completion/complete offers the values a prompt argument's z.enum names, by what was typed", async () => {
  const ref = { type: "ref/prompt" as const, name: "prompt-review" };
  expect((await legacy.complete({ ref, argument: { name: "tone", value: "st" } })).completion).toEqual({
    values: ["strict", "straight"],
    total: 2,
    hasMore: false,
  });
  expect((await modern.complete({ ref, argument: { name: "tone", value: "" } })).completion.values).toEqual(["gentle", "strict", "straight"]);
  // A free-text argument has nothing to offer.
  expect((await modern.complete({ ref, argument: { name: "topic", value: "p" } })).completion.values).toEqual([]);
});

test("logging/setLevel is answered for a 2025-era client (2026-07-28 has no such method)", async () => {
  await expect(legacy.setLoggingLevel("warning")).resolves.toEqual({});
});

test("resources/subscribe is acknowledged for a known resource and refused for an unknown one", async () => {
  await expect(legacy.subscribeResource({ uri: "herald://motd" })).resolves.toBeDefined();
  await expect(legacy.subscribeResource({ uri: "herald://nothing" })).rejects.toThrow(/Unknown resource/);
});

test.each([
  ["a 2025-era client", () => legacy],
  ["a 2026-07-28 client", () => modern],
])("the trace context in a request's _meta reaches the action's connection, from %s", async (_name, client) => {
  const read = await (client() as ClientV1).readResource({ uri: "herald://trace", _meta: { traceparent: TRACEPARENT, tracestate: "vendor=1" } });
  expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({ traceparent: TRACEPARENT, tracestate: "vendor=1" });
});

test("a traceparent header of the HTTP request wins over _meta", async () => {
  const headed = new ClientV1({ name: "features-headed", version: "1.0.0" });
  const header = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  await headed.connect(new HttpTransportV1(new URL(`${serverUrl()}/mcp`), { requestInit: { headers: { traceparent: header } } }));
  try {
    const read = await headed.readResource({ uri: "herald://trace", _meta: { traceparent: TRACEPARENT } });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ traceparent: header });
  } finally {
    await headed.close();
  }
});
