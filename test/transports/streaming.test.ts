import { Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorType } from "herald";
import { useTestServer, serverUrl, waitFor } from "herald/testing";
import { HTTP_APP } from "./http/fixture";
import { TestSocket } from "./websocket/support/test-socket";
import { Gate } from "../fixtures/apps/http-app/services/gate";
import { journal } from "../fixtures/apps/http-app/services/journal";
import { Probe } from "../fixtures/apps/http-app/services/probe";

const probe = new Probe();
const gate = new Gate();
const logs: Record<string, any>[] = [];
const logDestination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split("\n")) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line);
      logs.push(entry);
      // Where the call's log line falls among what its action and middleware did.
      if (typeof entry.params?.id === "string" && entry.status) journal.note(entry.params.id, `logged ${entry.status}`);
    }
    done();
  },
});
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

/** How one streaming call ended, as its caller saw it. */
interface Streamed {
  chunks: unknown[];
  /** Whether the stream said it ran to its end. */
  ended: boolean;
  error?: { type: string; message: string };
}

interface StreamingTransport {
  /** Calls `action` and reads its stream to the end. */
  call(action: string, params: Record<string, unknown>): Promise<Streamed>;
  /** Calls `action`, waits for its first value, then goes away. */
  leave(action: string, params: Record<string, string>): Promise<void>;
}

const ROUTES: Record<string, string> = {
  "stream:journal": "/journal",
  "stream:held": "/held",
  "stream:overdue": "/overdue",
  "stream:unencodable": "/unencodable",
};

function route(action: string, params: Record<string, unknown>): string {
  return api(`${ROUTES[action]}?${new URLSearchParams(params as Record<string, string>)}`);
}

function parseEvents(text: string): Streamed {
  const streamed: Streamed = { chunks: [], ended: false };
  for (const event of text.split("\n\n").filter(Boolean)) {
    const data = JSON.parse(event.split("data: ")[1]!);
    if (event.startsWith("event: end")) streamed.ended = true;
    else if (event.startsWith("event: error")) streamed.error = data.error;
    else streamed.chunks.push(data);
  }
  return streamed;
}

const overHttp: StreamingTransport = {
  async call(action, params) {
    return parseEvents(await (await fetch(route(action, params))).text());
  },
  async leave(action, params) {
    const controller = new AbortController();
    const response = await fetch(route(action, params), { signal: controller.signal });
    await response.body!.getReader().read();
    controller.abort();
  },
};

const overWebSocket: StreamingTransport = {
  async call(action, params) {
    const socket = await TestSocket.open();
    try {
      const messageId = `${action}-${String(params.id)}`;
      const answered = socket.next((message) => message.messageId === messageId && ("response" in message || "error" in message));
      socket.send({ messageType: "action", messageId, action, params });
      const answer = await answered;
      const chunks = socket.received.filter((message) => message.messageId === answer.messageId && "chunk" in message).map((message) => message.chunk);
      return { chunks, ended: "response" in answer, error: answer.error };
    } finally {
      await socket.close();
    }
  },
  async leave(action, params) {
    const socket = await TestSocket.open();
    socket.send({ messageType: "action", messageId: "leaving", action, params });
    await socket.next((message) => message.messageId === "leaving" && "chunk" in message);
    await socket.close();
  },
};

let mcp: Client;
const overMcp: StreamingTransport = {
  async call(action, params) {
    const result = await mcp.callTool({ name: action.replace(":", "-"), arguments: params });
    if (result.isError) return { chunks: [], ended: false, error: (result.structuredContent as { error: Streamed["error"] }).error };
    return { chunks: (result.structuredContent as { result: unknown[] }).result, ended: true };
  },
  async leave(action, params) {
    const cancel = new AbortController();
    const call = mcp.callTool({ name: action.replace(":", "-"), arguments: params }, undefined, { signal: cancel.signal });
    call.catch(() => undefined);
    await waitFor(() => journal.of(params.id!).includes("yield 1"));
    cancel.abort("no longer needed");
  },
};

/** A call that asks for progress is run by the MCP SDK rather than ahead of it: each value is a notification. */
const overMcpWithProgress: StreamingTransport = {
  async call(action, params) {
    const chunks: unknown[] = [];
    const result = await mcp.callTool({ name: action.replace(":", "-"), arguments: params }, undefined, {
      onprogress: (update) => chunks.push(JSON.parse(update.message!)),
    });
    if (result.isError) return { chunks, ended: false, error: (result.structuredContent as { error: Streamed["error"] }).error };
    expect((result.structuredContent as { result: unknown[] }).result).toEqual(chunks);
    return { chunks, ended: true };
  },
  async leave(action, params) {
    const cancel = new AbortController();
    let first!: () => void;
    const progressed = new Promise<void>((resolve) => (first = resolve));
    const call = mcp.callTool({ name: action.replace(":", "-"), arguments: params }, undefined, { signal: cancel.signal, onprogress: () => first() });
    call.catch(() => undefined);
    await progressed;
    cancel.abort("no longer needed");
  },
};

/** The one request log line of the call with this id, once it is written. */
async function logLineOf(id: string): Promise<Record<string, any>> {
  await waitFor(() => logs.some((line) => line.params?.id === id && line.status));
  const lines = logs.filter((line) => line.params?.id === id && line.status);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe.each([
  ["HTTP (Server-Sent Events)", "http", overHttp],
  ["WebSocket", "ws", overWebSocket],
  ["MCP", "mcp", overMcp],
  ["MCP, asking for progress", "mcp-progress", overMcpWithProgress],
] as const)("a stream is one call from its first runBefore to its end, over %s", (_name, prefix, transport) => {
  beforeAll(async () => {
    mcp = new Client({ name: "herald-test", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
  });
  afterAll(() => mcp?.close());

  test("runAfter runs after the last value, then the request log line says 200 for the whole stream", async () => {
    const id = `${prefix}-completed`;
    expect(await transport.call("stream:journal", { id, count: 2 })).toEqual({ chunks: [{ tick: 1 }, { tick: 2 }], ended: true });
    const line = await logLineOf(id);
    expect(line).toMatchObject({ level: 30, msg: "action", status: 200 });
    expect(journal.of(id)).toEqual(["runBefore", "yield 1", "yield 2", "body closed", "runAfter without error", "logged 200"]);
    expect(line.durationMs).toBeGreaterThanOrEqual(journal.at(id, "body closed") - journal.at(id, "runBefore"));
  });

  test("a stream that throws ends with its error; runAfter receives it; logged once, 500 action failed", async () => {
    const id = `${prefix}-failed`;
    const streamed = await transport.call("stream:journal", { id, count: 1, fail: true });
    expect(streamed.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_RUN, message: "The feed went away" });
    expect(await logLineOf(id)).toMatchObject({ level: 50, msg: "action failed", status: 500 });
    expect(journal.of(id)).toEqual(["runBefore", "yield 1", "body closed", `runAfter ${ErrorType.CONNECTION_ACTION_RUN}`, "logged 500"]);
  });

  test("a value that cannot be encoded ends the stream with 500, the action's iterator closed; logged once, by the dispatcher", async () => {
    const id = `${prefix}-unencodable`;
    const before = logs.length;
    const streamed = await transport.call("stream:unencodable", { id });
    expect(streamed.error).toMatchObject({ type: ErrorType.CONNECTION_SERVER_ERROR, message: expect.stringContaining('The response of "stream:unencodable" cannot be encoded as JSON') });
    expect(await logLineOf(id)).toMatchObject({ level: 50, msg: "action failed", status: 500 });
    expect(journal.of(id)).toEqual(["runBefore", "body closed", `runAfter ${ErrorType.CONNECTION_SERVER_ERROR}`, "logged 500"]);
    expect(logs.slice(before).filter((line) => line.level >= 40)).toHaveLength(1);
  });

  test("the deadline covers the stream: past it, the stream ends with the 504 timeout and runAfter receives it", async () => {
    const id = `${prefix}-overdue`;
    const streamed = await transport.call("stream:overdue", { id });
    // A failed tool result lists no values: a progress notification is how MCP shows one before the end.
    expect(streamed.chunks).toEqual(prefix === "mcp" ? [] : [{ tick: 1 }]);
    expect(streamed.error).toEqual(expect.objectContaining({ type: ErrorType.CONNECTION_ACTION_TIMEOUT, message: 'Action "stream:overdue" timed out after 300 ms' }));
    const line = await logLineOf(id);
    expect(line).toMatchObject({ level: 50, msg: "action failed", status: 504 });
    expect(line.durationMs).toBeGreaterThanOrEqual(journal.at(id, "yield 1") - journal.at(id, "runBefore"));
    await waitFor(() => journal.of(id).includes(`runAfter ${ErrorType.CONNECTION_ACTION_TIMEOUT}`));
    expect(journal.of(id)).toEqual([
      "runBefore",
      "yield 1",
      "logged 504",
      `aborted ${ErrorType.CONNECTION_ACTION_TIMEOUT}`,
      "body closed",
      `runAfter ${ErrorType.CONNECTION_ACTION_TIMEOUT}`,
    ]);
  });

  test("a client that leaves mid-stream ends it: runAfter receives client gone, logged at info as 499", async () => {
    const id = `${prefix}-left`;
    await transport.leave("stream:held", { id });
    const line = await logLineOf(id);
    expect(line).toMatchObject({ level: 30, msg: "client gone", status: 499 });
    expect(journal.of(id)).toEqual([
      "runBefore",
      "yield 1",
      `aborted ${ErrorType.CONNECTION_CLIENT_GONE}`,
      "body closed",
      `runAfter ${ErrorType.CONNECTION_CLIENT_GONE}`,
      "logged 499",
    ]);
  });
});
