import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { HeraldProcess } from "../support/herald-process";

const BASIC_APP = join(__dirname, "../fixtures/apps/basic");
/** The OTLP exporters load their HTTP transport with a dynamic import(), which Jest's VM refuses: a real process exports. */
const ROOT = join(__dirname, "../..");

interface Received {
  contentType: string | undefined;
  body: Buffer;
}

let receiver: Server;
let received: Received[] = [];
let endpoint: string;
let exporting: HeraldProcess | undefined;

beforeAll(async () => {
  receiver = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.url === "/v1/metrics") received.push({ contentType: req.headers["content-type"], body: Buffer.concat(chunks) });
      res.writeHead(200, { "content-type": req.headers["content-type"] ?? "application/json" }).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
}, HOOK_TIMEOUT);

afterAll(() => new Promise((resolve) => receiver.close(resolve)));

afterEach(async () => {
  await exporting?.stop();
  exporting = undefined;
  received = [];
}, HOOK_TIMEOUT);

async function exportWith(protocol: string): Promise<void> {
  exporting = await HeraldProcess.start(ROOT, {
    PGLITE_DATA_DIR: "memory://",
    DATABASE_URL: "",
    REDIS_URL: "",
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_METRIC_EXPORT_INTERVAL: "100",
  });
}

test("http/json: the receiver gets a JSON export request holding Herald's metrics", async () => {
  await exportWith("http/json");
  await waitFor(() => received.some(({ body }) => body.includes("v8js.memory.heap.used")));
  const request = received.find(({ body }) => body.includes("v8js.memory.heap.used"))!;
  expect(request.contentType).toMatch(/^application\/json/);
  const names = (JSON.parse(request.body.toString()) as { resourceMetrics: { scopeMetrics: { scope: { name: string }; metrics: { name: string }[] }[] }[] })
    .resourceMetrics.flatMap((resource) => resource.scopeMetrics)
    .filter((scope) => scope.scope.name === "herald")
    .flatMap((scope) => scope.metrics.map((metric) => metric.name));
  expect(names).toContain("v8js.memory.heap.used");
});

test("http/protobuf (the default): the receiver gets a protobuf export request holding Herald's metrics", async () => {
  await exportWith("http/protobuf");
  await waitFor(() => received.some(({ body }) => body.includes("v8js.memory.heap.used")));
  const request = received.find(({ body }) => body.includes("v8js.memory.heap.used"))!;
  expect(request.contentType).toBe("application/x-protobuf");
});

test("OTEL_SDK_DISABLED=true or OTEL_METRICS_EXPORTER=none, in any case, as the traces read them: nothing is exported", async () => {
  for (const off of [{ OTEL_SDK_DISABLED: "true" }, { OTEL_SDK_DISABLED: "TRUE" }, { OTEL_SDK_DISABLED: " True " }, { OTEL_METRICS_EXPORTER: "none" }, { OTEL_METRICS_EXPORTER: "None" }]) {
    const booted: HeraldServer = await startTestServer({ appDir: BASIC_APP, env: { LOG_LEVEL: "fatal", REDIS_URL: "", OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, ...off } });
    expect(booted.metrics.settings.otlp).toBeUndefined();
    await booted.stop();
  }
});
