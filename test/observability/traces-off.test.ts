import { join } from "node:path";
import { trace } from "@opentelemetry/api";
import { TaskService } from "herald";
import { serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import { isTracing } from "../../src/core/tracing";
import { jsonLogs } from "../support/json-logs";
import { remoteParent } from "./support/in-memory-tracing";

/** Without an SDK (no tracer provider, no OTLP endpoint), Herald records no span and logs no trace id. */
const appDir = join(__dirname, "../fixtures/apps/traced");
const logs = jsonLogs();
const { OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT } = process.env;
beforeAll(() => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
});
afterAll(() => Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT }));
useTestServer({ appDir, env: { REDIS_URL: "", LOG_LEVEL: "info", LOG_FORMAT: "json" }, logDestination: logs.stream });

test("no tracer provider is registered", () => {
  expect(isTracing()).toBe(false);
  expect(trace.getActiveSpan()).toBeUndefined();
});

test("a call, even sent with a traceparent, runs in no span, and its log lines carry no trace id", async () => {
  const response = await fetch(`${serverUrl()}/api/users/off?enqueue=one`, { headers: { traceparent: remoteParent().traceparent } });
  const answer = (await response.json()) as { traceId: string | null; queued: string };
  expect(answer.traceId).toBeNull();
  const tasks = testServer().container.resolve(TaskService);
  await waitFor(async () => (await tasks.getJob("traced", answer.queued))?.status === "succeeded");
  expect((await tasks.getJob("traced", answer.queued))?.result).toMatchObject({ traceId: null, keys: ["id"] });
  const line = logs.lines.find((entry) => entry.msg === "traced user read" && entry.traced === "off");
  expect(line).toBeDefined();
  expect(logs.text.some((text) => text.includes("trace_id") || text.includes("span_id"))).toBe(false);
});
