import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createClient } from "herald/client";
import { waitFor } from "herald/testing";
import type { AppActions, AppChannels } from "../../sample-app/herald-client";
import { call, type HttpAnswer } from "../reliability/support/http";
import { WsClient } from "../reliability/support/ws-client";
import { useTopology } from "./support/topology";

/**
 * Three web processes and two task-worker processes of the sample app, in production, behind
 * HAProxy (deploy/haproxy.cfg: round robin, no sticky sessions), sharing PostgreSQL and Redis:
 * whichever process a request lands on, the app behaves as one.
 */
const topology = useTopology("cluster");

let account = 0;

/** Signs up a new user through the balancer and signs in; resolves with its session cookie. */
async function signedIn(): Promise<{ cookie: string; email: string }> {
  account += 1;
  const email = `topology-${account}@example.com`;
  const password = "correct horse battery";
  expect((await call(`${topology.url}/api/user`, { method: "PUT", body: { name: `User ${account}`, email, password } })).status).toBe(200);
  const signIn = await call(`${topology.url}/api/session`, { method: "PUT", body: { email, password } });
  expect(signIn.status).toBe(200);
  return { cookie: signIn.headers.get("set-cookie")!.split(";")[0]!, email };
}

function processesThatServed(action: string, fields: Record<string, unknown> = {}): number {
  return topology.web.filter((web) => web.lines("action", { action, ...fields }).length > 0).length;
}

test("the balancer hands consecutive requests to each of the three web processes in turn", async () => {
  for (let i = 0; i < 6; i++) expect((await call(`${topology.url}/api/status`)).status).toBe(200);
  await waitFor(() => processesThatServed("status") === 3);
});

test("a session made through one process is honoured by the others, over HTTP", async () => {
  const { cookie, email } = await signedIn();
  const views: HttpAnswer[] = [];
  for (let i = 0; i < 6; i++) views.push(await call(`${topology.url}/api/session`, { headers: { cookie } }));
  expect(views.map((view) => [view.status, view.body.user?.email])).toEqual(Array(6).fill([200, email]));
  await waitFor(() => processesThatServed("session:view", { connection: "web" }) === 3);
});

test("WebSockets on different processes share the session, and a message posted through any process reaches the subscribers of every one", async () => {
  const { cookie, email } = await signedIn();
  const sockets: WsClient[] = [];
  try {
    for (let i = 0; i < 3; i++) sockets.push(await WsClient.open(topology.url, "/ws", { cookie, origin: topology.url }));
    for (const socket of sockets) {
      expect(await socket.call("session:view")).toMatchObject({ response: { user: { email } } });
      expect(await socket.request({ messageType: "subscribe", channel: "messages" })).toMatchObject({ subscribed: { channel: "messages" } });
    }
    await waitFor(() => processesThatServed("session:view", { connection: "websocket" }) === 3);

    // Waited for before the post: the message may reach a socket before the post's answer reaches the test.
    const delivered = Promise.all(sockets.map((socket) => socket.next((message) => message.messageType === "message" && message.channel === "messages")));
    const posted = await call(`${topology.url}/api/message`, { method: "PUT", body: { body: "to every process" }, headers: { cookie } });
    expect(posted.status).toBe(200);
    const deliveries = await delivered;
    expect(deliveries.map((delivery) => delivery.message.body)).toEqual(["to every process", "to every process", "to every process"]);
  } finally {
    await Promise.all(sockets.map((socket) => socket.close()));
  }
});

test("a rate limit holds across the processes: an account's wrong passwords are counted wherever they land", async () => {
  const { email } = await signedIn();
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push((await call(`${topology.url}/api/session`, { method: "PUT", body: { email, password: "wrong password" } })).status);
  // PASSWORD_FAILURES_PER_ACCOUNT is 10: three processes counting apart would have allowed 30.
  expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  // The log lines come through each process's own pipe: read when they arrive.
  await waitFor(() => processesThatServed("session:create") === 3);
});

test("MCP clients of both protocol generations work through the balancer, each request landing where it may", async () => {
  const current = new Client({ name: "topology", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await current.connect(new StreamableHTTPClientTransport(new URL(`${topology.url}/mcp`)));
  const legacy = new ClientV1({ name: "topology-2025", version: "1.0.0" });
  await legacy.connect(new HttpTransportV1(new URL(`${topology.url}/mcp`)));
  try {
    for (const client of [current, legacy] as unknown as Client[]) {
      for (let i = 0; i < 3; i++) {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("messages-list");
        expect(await client.callTool({ name: "messages-list", arguments: { limit: 1 } })).not.toHaveProperty("isError", true);
      }
    }
    // The clients' own requests (initialize, a 2025-era client's attempt at a GET stream) fall between the calls.
    await waitFor(() => processesThatServed("messages:list", { connection: "mcp" }) > 1);
  } finally {
    await Promise.all([current.close(), legacy.close()]);
  }
});

test("an MCP listen stream held by one process hears a message posted through another", async () => {
  const { cookie } = await signedIn();
  const watching = new Client({ name: "topology-listener", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await watching.connect(new StreamableHTTPClientTransport(new URL(`${topology.url}/mcp`)));
  const updated: string[] = [];
  watching.setNotificationHandler("notifications/resources/updated", (notification) => void updated.push(notification.params.uri));
  try {
    const subscription = await watching.listen({ resourceSubscriptions: ["herald://messages"] });
    // Three posts, three processes: whichever holds the stream, two of the posts go through the others.
    for (let i = 0; i < 3; i++) {
      expect((await call(`${topology.url}/api/message`, { method: "PUT", body: { body: `heard ${i}` }, headers: { cookie } })).status).toBe(200);
    }
    await waitFor(() => updated.length === 3);
    expect(updated).toEqual(["herald://messages", "herald://messages", "herald://messages"]);
    await subscription.close();
  } finally {
    await watching.close();
  }
});

test("a rolling restart under traffic fails no request: each process leaves the balancer at /readyz before it stops", async () => {
  const failures: string[] = [];
  let answered = 0;
  let running = true;
  const traffic = Array.from({ length: 4 }, async () => {
    while (running) {
      const answer = await call(`${topology.url}/api/messages/list?limit=1`).catch((error: Error) => ({ status: 0, body: error.message }) as HttpAnswer);
      if (answer.status === 200) answered += 1;
      else failures.push(`${answer.status}: ${JSON.stringify(answer.body)}`);
    }
  });
  try {
    for (let index = 0; index < topology.web.length; index++) {
      await topology.restartWeb(index);
      // The replacement is back behind the balancer, and serving, before the next one stops.
      await waitFor(() => topology.web[index]!.lines("action", { action: "messages:list" }).length > 0, { timeout: 30_000 });
    }
  } finally {
    running = false;
    await Promise.all(traffic);
  }
  expect(failures).toEqual([]);
  expect(answered).toBeGreaterThan(0);
});

test("herald/client's socket, closed with 1001 when its process stops, reconnects through the balancer to another and keeps its subscription", async () => {
  const client = createClient<AppActions, AppChannels>({ url: topology.url });
  account += 1;
  const email = `topology-${account}@example.com`;
  await client.call("user:create", { name: `User ${account}`, email, password: "correct horse battery" });
  await client.call("session:create", { email, password: "correct horse battery" });
  const socket = client.socket();
  const closes: number[] = [];
  let opens = 0;
  socket.on("close", (code) => void closes.push(code));
  socket.on("open", () => void (opens += 1));
  const received: string[] = [];
  try {
    await socket.opened();
    await socket.subscribe("messages", (message) => void received.push(message.body));
    const marker = `socket of ${email}`;
    // The process holding the socket is the one whose socket calls go up by this one.
    const socketViews = () => topology.web.map((web) => web.lines("action", { action: "session:view", connection: "websocket" }).length);
    const before = socketViews();
    await socket.call("session:view", {});
    await waitFor(() => socketViews().some((count, i) => count > before[i]!));
    const holder = socketViews().findIndex((count, i) => count > before[i]!);
    await topology.restartWeb(holder);
    await waitFor(() => closes.includes(1001) && opens === 2, { timeout: 30_000 });
    await client.call("message:create", { body: marker });
    await waitFor(() => received.includes(marker), { timeout: 10_000 });
  } finally {
    socket.close();
  }
});
