import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorType, HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { Gate } from "../../fixtures/apps/http-app/services/gate";
import { Probe } from "../../fixtures/apps/http-app/services/probe";
import { call } from "../../reliability/support/http";
import { HTTP_APP } from "./fixture";
import { TestSocket } from "../websocket/support/test-socket";

/** One remote address may have MAX_CONCURRENT_CALLS_PER_ADDRESS calls in flight; the next is refused with 429 at once. */
const PER_ADDRESS = 3;
let gate: Gate;
let server: HeraldServer;

async function boot(env: NodeJS.ProcessEnv): Promise<void> {
  gate = new Gate();
  server = await startTestServer({
    appDir: HTTP_APP,
    env: { LOG_LEVEL: "fatal", REDIS_URL: "", ...env },
    providers: [{ token: Gate, useValue: gate }, { token: Probe, useValue: new Probe() }],
  });
}

afterEach(async () => {
  gate.release();
  await server?.stop();
}, HOOK_TIMEOUT);

test("calls beyond the bound from one address are refused with a typed 429 and Retry-After; later ones are served", async () => {
  await boot({ MAX_CONCURRENT_CALLS_PER_ADDRESS: String(PER_ADDRESS) });
  const held = Array.from({ length: PER_ADDRESS }, () => call(`${server.url}/api/slow`));
  await waitFor(() => gate.entered === PER_ADDRESS);

  const refused = await call(`${server.url}/api/echo?text=hello`);
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toBe("1");
  expect(refused.body.error).toMatchObject({ type: ErrorType.CONNECTION_RATE_LIMITED, key: "address", value: { limit: PER_ADDRESS } });

  gate.release();
  for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
  expect((await call(`${server.url}/api/echo?text=hello`)).status).toBe(200);
});

test("a run that outlives its timeout still counts until it ends", async () => {
  await boot({ MAX_CONCURRENT_CALLS_PER_ADDRESS: "1", ACTION_TIMEOUT: "300" });
  expect((await call(`${server.url}/api/slow`)).status).toBe(504);
  expect((await call(`${server.url}/api/echo?text=hello`)).status).toBe(429);

  gate.release();
  await waitFor(async () => (await call(`${server.url}/api/echo?text=hello`)).status === 200);
});

/** Starts a call of stream:gated and resolves, with its values, once the stream has ended. */
const streamOver: Record<string, () => Promise<string>> = {
  async http() {
    return (await fetch(`${server.url}/api/gated`)).text();
  },
  async websocket() {
    const socket = await TestSocket.open(`${server.url!.replace(/^http/, "ws")}/ws`);
    try {
      socket.send({ messageType: "action", messageId: "gated", action: "stream:gated" });
      await socket.next((message) => message.messageId === "gated" && "response" in message);
      return JSON.stringify(socket.received.filter((message) => message.messageId === "gated"));
    } finally {
      await socket.close();
    }
  },
  async mcp() {
    const client = new Client({ name: "herald-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      return JSON.stringify((await client.callTool({ name: "stream-gated", arguments: {} })).structuredContent);
    } finally {
      await client.close();
    }
  },
};

test.each(Object.keys(streamOver))("over %s, a stream counts against its caller until it ends, not only until run returns it", async (transport) => {
  await boot({ MAX_CONCURRENT_CALLS_PER_ADDRESS: "1" });
  const streamed = streamOver[transport]!();
  await waitFor(() => gate.entered === 1);
  expect((await call(`${server.url}/api/echo?text=hello`)).status).toBe(429);

  gate.release();
  expect(await streamed).toContain('{"tick":2}');
  expect((await call(`${server.url}/api/echo?text=hello`)).status).toBe(200);
});
