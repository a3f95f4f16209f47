import { request, type ClientRequest } from "node:http";
import { join } from "node:path";
import type { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { ListenStreamsPerCaller } from "../../../src/transports/mcp/listen-streams-per-caller";

/**
 * Every `subscriptions/listen` stream holds one of the process's MCP_MAX_SUBSCRIPTIONS slots
 * until it closes; one caller may hold no more than MCP_MAX_SUBSCRIPTIONS_PER_CALLER of them, so
 * that a newcomer still gets one. Real streams over HTTP; a client appears as another address by
 * binding 127.0.0.2.
 */
const APP = join(__dirname, "../../fixtures/apps/mcp-channels");
const PER_CALLER = 2;
let server: HeraldServer;
const open: ClientRequest[] = [];

beforeAll(async () => {
  server = await startTestServer({ appDir: APP, env: { MCP_MAX_SUBSCRIPTIONS: "8", MCP_MAX_SUBSCRIPTIONS_PER_CALLER: String(PER_CALLER) } });
}, HOOK_TIMEOUT);
afterEach(() => {
  for (const stream of open.splice(0)) stream.destroy();
});
afterAll(() => server?.stop(), HOOK_TIMEOUT);

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "listening", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

type Listen = { stream: ClientRequest } | { error: { code: number; message: string; data?: { error?: { type?: string } } } };

/**
 * Sends `subscriptions/listen` as the SDK client does, from `localAddress`: resolves with the
 * open stream once its first event arrives, or with the JSON-RPC error it was answered with.
 */
function listen(localAddress: string, resourceSubscriptions: string[] = ["herald://board"]): Promise<Listen> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: "listen:1", method: "subscriptions/listen", params: { _meta: META, notifications: { resourceSubscriptions } } });
  const url = new URL(`${server.url}/mcp`);
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: "POST",
        localAddress,
        agent: false,
        headers: {
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          "mcp-method": "subscriptions/listen",
          "mcp-protocol-version": "2026-07-28",
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
          const events = /^data: (.*)$/m.exec(text);
          if (response.headers["content-type"]?.startsWith("text/event-stream")) {
            if (!events) return;
            const message = JSON.parse(events[1]!) as { error?: Extract<Listen, { error: unknown }>["error"] };
            if (message.error) resolve({ error: message.error });
            else {
              open.push(sent);
              resolve({ stream: sent });
            }
          }
        });
        response.on("end", () => {
          if (!response.headers["content-type"]?.startsWith("text/event-stream")) resolve({ error: (JSON.parse(text) as { error: Extract<Listen, { error: unknown }>["error"] }).error });
        });
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

const errorOf = (listened: Listen) => ("error" in listened ? listened.error : undefined);

test("one caller holds at most its bound of listen streams; past it, a JSON-RPC error that says so, and another caller still gets a stream", async () => {
  for (let stream = 0; stream < PER_CALLER; stream += 1) expect(errorOf(await listen("127.0.0.1"))).toBeUndefined();
  const refused = errorOf(await listen("127.0.0.1"));
  expect(refused).toMatchObject({ code: -32000, data: { error: { type: "CONNECTION_RATE_LIMITED" } } });
  expect(refused?.message).toContain(`one caller may hold ${PER_CALLER}`);
  // A listen stream for no resource holds a slot as well.
  expect(errorOf(await listen("127.0.0.1", []))).toMatchObject({ code: -32000 });
  expect(errorOf(await listen("127.0.0.2"))).toBeUndefined();
});

test("a stream that closes gives its caller the slot back", async () => {
  // An address of its own: the streams of the test before close on their own time.
  const streams: ClientRequest[] = [];
  for (let stream = 0; stream < PER_CALLER; stream += 1) {
    const listened = await listen("127.0.0.3");
    if ("stream" in listened) streams.push(listened.stream);
  }
  expect(streams).toHaveLength(PER_CALLER);
  expect(errorOf(await listen("127.0.0.3"))).toMatchObject({ code: -32000 });
  streams[0]!.destroy();
  await waitFor(async () => errorOf(await listen("127.0.0.3")) === undefined);
});

test("with an access token, a stream counts against the token's holder too: more addresses with one token get no more", () => {
  const streams = new ListenStreamsPerCaller(PER_CALLER);
  const token = { clientId: "client", subject: "ada", scopes: [], claims: {} };
  const ends = ["10.0.0.1", "10.0.0.2"].map((address) => streams.take(ListenStreamsPerCaller.keysOf(address, token)));
  expect(ends.every((end) => end !== undefined)).toBe(true);
  expect(streams.take(ListenStreamsPerCaller.keysOf("10.0.0.3", token))).toBeUndefined();
  // Another user of the same client, from an address already counted once, still gets one.
  expect(streams.take(ListenStreamsPerCaller.keysOf("10.0.0.1", { ...token, subject: "grace" }))).toBeDefined();
  ends[0]!();
  expect(streams.take(ListenStreamsPerCaller.keysOf("10.0.0.3", token))).toBeDefined();
});

test("the addresses of one IPv6 /64 are one caller; IPv4 addresses are each their own", () => {
  const streams = new ListenStreamsPerCaller(1);
  expect(streams.take(ListenStreamsPerCaller.keysOf("2001:db8:7::1", undefined))).toBeDefined();
  expect(streams.take(ListenStreamsPerCaller.keysOf("2001:db8:7::2", undefined))).toBeUndefined();
  expect(streams.take(ListenStreamsPerCaller.keysOf("2001:db8:8::1", undefined))).toBeDefined();
  expect(streams.take(ListenStreamsPerCaller.keysOf("10.0.0.1", undefined))).toBeDefined();
  expect(streams.take(ListenStreamsPerCaller.keysOf("10.0.0.2", undefined))).toBeDefined();
});
