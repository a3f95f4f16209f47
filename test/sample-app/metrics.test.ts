import { readFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { TaskService } from "herald";
import { serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import { gaugeValue, histogramCount, scrape, type Scrape } from "../support/prometheus";
import { usePostgresSchema } from "./support/postgres";
import { SAMPLE_APP } from "./support/app";

const postgres = usePostgresSchema("sample_metrics");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url } });

const CALLS = "rpc_server_call_duration";
const REQUESTS = "http_server_request_duration";
const JOBS = "messaging_process_duration";

async function openSocket(): Promise<{ socket: WebSocket; received: any[] }> {
  const socket = new WebSocket(`${serverUrl().replace(/^http/, "ws")}/ws`);
  const received: any[] = [];
  socket.on("message", (data) => received.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  return { socket, received };
}

const calls = (scraped: Scrape, method: string, transport: string, errorType?: string) =>
  histogramCount(scraped, CALLS, { rpc_method: method, herald_transport: transport, error_type: errorType });

test("the counts move by exactly the calls made, over HTTP, WebSocket and a task; the gauges read what is open", async () => {
  // The hourly cleanup fires once at boot: counted before the traffic, so it is not part of it.
  await waitFor(async () => calls(await scrape(serverUrl()), "messages:cleanup", "task") === 1);
  const before = await scrape(serverUrl());

  for (let index = 0; index < 3; index++) expect((await fetch(`${serverUrl()}/api/messages/list`)).status).toBe(200);
  const missing = await fetch(`${serverUrl()}/api/user/999999`);
  const missingType = ((await missing.json()) as { error: { type: string } }).error.type;
  for (let index = 0; index < 2; index++) await fetch(`${serverUrl()}/api/user/999999`);
  expect((await fetch(`${serverUrl()}/api/no-such-route`)).status).toBe(404);

  const sockets = [await openSocket(), await openSocket()];
  try {
    const [{ socket, received }] = sockets as [{ socket: WebSocket; received: any[] }];
    for (const messageId of ["a", "b"]) socket.send(JSON.stringify({ messageType: "action", messageId, action: "messages:list", params: {} }));
    await waitFor(() => received.filter((message) => message.response).length === 2);
    await testServer().container.resolve(TaskService).enqueue("messages:cleanup", { age: 86_400_000 });
    await waitFor(async () => calls(await scrape(serverUrl()), "messages:cleanup", "task") === 2);

    const after = await scrape(serverUrl());
    const moved = (count: (scraped: Scrape) => number) => count(after) - count(before);
    expect(moved((s) => calls(s, "messages:list", "web"))).toBe(3);
    expect(moved((s) => calls(s, "user:view", "web", missingType))).toBe(3);
    expect(moved((s) => calls(s, "messages:list", "websocket"))).toBe(2);
    expect(moved((s) => calls(s, "messages:cleanup", "task"))).toBe(1);
    // By route template, never the path; a request no action answers has no route.
    const requests = (s: Scrape, route: string | undefined, status: string) =>
      histogramCount(s, REQUESTS, { http_route: route, http_request_method: "GET", http_response_status_code: status });
    expect(moved((s) => requests(s, "/api/messages/list", "200"))).toBe(3);
    expect(moved((s) => requests(s, "/api/user/:user", String(missing.status)))).toBe(3);
    expect(moved((s) => requests(s, undefined, "404"))).toBe(1);
    expect(moved((s) => histogramCount(s, JOBS, { messaging_destination_name: "default", error_type: undefined }))).toBe(1);

    expect(gaugeValue(after, "herald_websocket_open_connections")).toBe(2);
    expect(gaugeValue(after, "herald_queue_jobs", { messaging_destination_name: "default", herald_job_state: "waiting" })).toBe(0);
    expect(gaugeValue(after, "db_client_connection_max")).toBeGreaterThan(0);
    expect(gaugeValue(after, "db_client_connection_count", { db_client_connection_state: "idle" })).toBeGreaterThanOrEqual(0);
    expect(gaugeValue(after, "v8js_memory_heap_used")).toBeGreaterThan(0);
    expect(gaugeValue(after, "nodejs_eventloop_delay_p99")).toBeGreaterThanOrEqual(0);
  } finally {
    for (const { socket } of sockets) socket.close();
  }
  await waitFor(async () => gaugeValue(await scrape(serverUrl()), "herald_websocket_open_connections") === 0);
});

test("/metrics is at the site root, in the Prometheus text format, and not in the OpenAPI document", async () => {
  const response = await fetch(`${serverUrl()}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
  expect((await fetch(`${serverUrl()}/api/metrics`)).status).toBe(404);
  const document = (await (await fetch(`${serverUrl()}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
  expect(Object.keys(document.paths).some((path) => path.includes("metrics"))).toBe(false);
});

/** The metric names a PromQL expression reads (not its label names): the ones Herald serves have these prefixes. */
function metricNamesIn(expression: string): string[] {
  const withoutLabels = expression.replace(/\{[^}]*\}/g, "").replace(/\b(?:by|without)\s*\([^)]*\)/g, "").replace(/label_values\(([^,]+),[^)]*\)/g, "$1");
  return withoutLabels.match(/\b(?:http_server|rpc_server|messaging|herald|nodejs|v8js|db_client)_[a-z0-9_]+\b/g) ?? [];
}

test("every metric the Grafana dashboard queries is one this app serves, by the name it serves it", async () => {
  const dashboard = JSON.parse(readFileSync(join(__dirname, "../../docs/observability/grafana/herald-dashboard.json"), "utf8")) as {
    panels: { targets?: { expr: string }[] }[];
    templating: { list: { definition?: string }[] };
  };
  const expressions = [
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
    ...dashboard.templating.list.flatMap((variable) => (variable.definition ? [variable.definition] : [])),
  ];
  const queried = new Set(expressions.flatMap(metricNamesIn));
  expect(queried.size).toBeGreaterThan(10);

  // A histogram appears once it has measured: an HTTP call, and the job the app runs at boot.
  expect((await fetch(`${serverUrl()}/api/status`)).status).toBe(200);
  await waitFor(async () => histogramCount(await scrape(serverUrl()), JOBS) > 0);
  const served = new Set((await scrape(serverUrl())).map((family) => family.name));
  // A counter appears once it has counted: no job of this app has been retried. job-metrics.test.ts scrapes this one.
  const countedElsewhere = new Set(["herald_job_retries_total"]);
  const missing = [...queried].filter((name) => !served.has(name) && !countedElsewhere.has(name));
  expect(missing).toEqual([]);
});
