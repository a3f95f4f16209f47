import { useTestServer, serverUrl, waitFor } from "herald/testing";
import { HTTP_APP } from "./fixture";
import { Gate } from "../../fixtures/apps/http-app/services/gate";
import { Probe } from "../../fixtures/apps/http-app/services/probe";
import { jsonLogs } from "../../support/json-logs";

const probe = new Probe();
const gate = new Gate();
const { stream: logDestination, lines: logs } = jsonLogs();
useTestServer({
  appDir: HTTP_APP,
  env: { LOG_LEVEL: "info", LOG_FORMAT: "json" },
  logDestination,
  providers: [
    { token: Probe, useValue: probe },
    { token: Gate, useValue: gate },
  ],
});

const api = (path: string) => `${serverUrl()}/api${path}`;

test("an action returning an async iterable is sent as Server-Sent Events, ending with an end event", async () => {
  const response = await fetch(api("/ticks?count=3"), { headers: { "Accept-Encoding": "gzip" } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-cache");
  expect(response.headers.get("content-encoding")).toBeNull();
  expect(response.headers.get("x-request-id")).toBeTruthy();
  expect(await response.text()).toBe(
    'data: {"tick":1}\n\ndata: {"tick":2}\n\ndata: {"tick":3}\n\nevent: end\ndata: {}\n\n',
  );
});

test("a stream's params are validated first: a bad one is an ordinary 422 JSON error", async () => {
  const response = await fetch(api("/ticks?count=-1"));
  expect(response.status).toBe(422);
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
});

test("an error thrown mid-stream is sent as an error event carrying the error body, then the stream ends", async () => {
  const text = await (await fetch(api("/ticks/broken"))).text();
  const [first, second] = text.trim().split("\n\n");
  expect(first).toBe('data: {"tick":1}');
  expect(second).toMatch(/^event: error\ndata: /);
  const body = JSON.parse(second!.split("\ndata: ")[1]!);
  expect(body.error).toMatchObject({ type: "CONNECTION_SERVICE_UNAVAILABLE", message: "The feed went away" });
});

test("a client that disconnects aborts the action's signal and the stream stops", async () => {
  const controller = new AbortController();
  const response = await fetch(api("/ticks/forever"), { signal: controller.signal });
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toContain('data: {"tick":1}');
  expect(probe.aborted).toBe(0);
  controller.abort();
  await waitFor(() => probe.aborted === 1 && probe.finished === 1);
  expect(probe.reason).toMatchObject({ message: "The client closed the connection before the response" });
});

test("a client that disconnects before an ordinary action answers aborts its signal too", async () => {
  const controller = new AbortController();
  const { aborted, finished } = probe;
  const pending = fetch(api("/slow"), { signal: controller.signal }).catch((error: Error) => error);
  await waitFor(() => gate.entered === 1);
  controller.abort();
  expect(await pending).toMatchObject({ name: "AbortError" });
  await waitFor(() => probe.aborted === aborted + 1);
  gate.release();
  await waitFor(() => probe.finished === finished + 1);
  // Its own outcome in the request log: not a failure, and not a success no one received.
  await waitFor(() => logs.some((line) => line.action === "slow:wait"));
  expect(logs.filter((line) => line.action === "slow:wait")).toEqual([
    expect.objectContaining({ level: 30, msg: "client gone", status: 499, error: expect.objectContaining({ type: "CONNECTION_CLIENT_GONE" }) }),
  ]);
});
