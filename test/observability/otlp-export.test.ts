import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { waitFor } from "herald/testing";
import { HeraldProcess } from "../support/herald-process";

/**
 * `herald start` with OTEL_EXPORTER_OTLP_ENDPOINT set exports its spans over OTLP, in the protocol
 * OTEL_EXPORTER_OTLP_PROTOCOL names, to a receiver this test runs.
 */
const appDir = join(__dirname, "../fixtures/apps/traced");

interface Received {
  path: string;
  contentType: string;
  body: Buffer;
}

let receiver: Server;
let endpoint: string;
const received: Received[] = [];

function read(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

beforeAll(async () => {
  receiver = createServer(async (request, response) => {
    const body = await read(request);
    received.push({ path: request.url ?? "", contentType: String(request.headers["content-type"]), body });
    response.writeHead(200, { "Content-Type": String(request.headers["content-type"] ?? "application/json") });
    response.end(String(request.headers["content-type"]).includes("json") ? "{}" : "");
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
beforeEach(() => received.splice(0));

async function tracedCall(protocol: string): Promise<HeraldProcess> {
  const herald = await HeraldProcess.start(appDir, {
    REDIS_URL: "",
    NAME: "traced-app",
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_BSP_SCHEDULE_DELAY: "20",
    OTEL_SERVICE_NAME: "",
    OTEL_SDK_DISABLED: "",
  });
  const response = await fetch(`${herald.url}/api/users/exported`);
  expect(response.status).toBe(200);
  return herald;
}

type JsonAttribute = { key: string; value: Record<string, unknown> };
type JsonSpan = { name: string; kind: number; attributes: JsonAttribute[] };
type JsonExport = { resourceSpans: { resource: { attributes: JsonAttribute[] }; scopeSpans: { spans: JsonSpan[] }[] }[] };

const valueOf = (attributes: JsonAttribute[], key: string) => {
  const value = attributes.find((attribute) => attribute.key === key)?.value;
  return value && Object.values(value)[0];
};

test("http/json: the action's span arrives as OTLP JSON, with its attributes and the app's service name", async () => {
  const herald = await tracedCall("http/json");
  try {
    const exports = () =>
      received.filter((entry) => entry.path === "/v1/traces").flatMap((entry) => (JSON.parse(entry.body.toString()) as JsonExport).resourceSpans);
    const spans = () => exports().flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ span, resource: resource.resource }))));
    const named = (name: string) => spans().filter((entry) => entry.span.name === name);
    await waitFor(() => named("traced:user").length > 0 && named("GET /api/users/:id").length > 0);
    expect(received.every((entry) => entry.contentType.startsWith("application/json"))).toBe(true);
    const { span, resource } = named("traced:user")[0]!;
    expect(valueOf(span.attributes, "rpc.method")).toBe("traced:user");
    expect(valueOf(span.attributes, "rpc.system.name")).toBe("herald");
    expect(valueOf(span.attributes, "herald.transport")).toBe("web");
    expect(valueOf(resource.attributes, "service.name")).toBe("traced-app");
    // The SDK Herald starts exports traces only: metrics and logs are not sent to the endpoint.
    expect(received.filter((entry) => entry.path !== "/v1/traces")).toEqual([]);
  } finally {
    await herald.stop();
  }
});

test("http/protobuf (the default protocol): the action's span arrives as OTLP protobuf", async () => {
  const herald = await tracedCall("");
  try {
    const traces = () => received.filter((entry) => entry.path === "/v1/traces");
    await waitFor(() => traces().some((entry) => entry.body.includes("traced:user")));
    const exported = traces().find((entry) => entry.body.includes("traced:user"))!;
    expect(exported.contentType).toBe("application/x-protobuf");
    expect(exported.body.includes("rpc.method")).toBe(true);
    expect(exported.body.includes("GET /api/users/:id")).toBe(true);
  } finally {
    await herald.stop();
  }
});

test("spans still batched when the server stops are flushed before it exits", async () => {
  const herald = await HeraldProcess.start(appDir, {
    REDIS_URL: "",
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    // Longer than any test: only the shutdown's flush sends the span.
    OTEL_BSP_SCHEDULE_DELAY: "600000",
  });
  const response = await fetch(`${herald.url}/api/users/flushed`);
  expect(response.status).toBe(200);
  expect(received.some((entry) => entry.body.includes("traced:user"))).toBe(false);
  expect(await herald.stop()).toBe(0);
  expect(received.some((entry) => entry.path === "/v1/traces" && entry.body.includes("traced:user"))).toBe(true);
});
