import { createClient, HeraldClientError, SocketClosedError, type ClientChannels, type HeraldClient } from "herald/client";
import { serverUrl, startTestServer, useTestServer, waitFor } from "herald/testing";
import type { HeraldServer } from "herald";
import type { AppActions, AppChannels } from "../../sample-app/herald-client";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { SAMPLE_APP, truncateAll } from "../sample-app/support/app";
import { TcpProxy } from "../support/tcp-proxy";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { expectUserCreateErrors } from "./support/user-create-errors";

/**
 * herald/client's socket against the real sample app over WebSocket, on a real PostgreSQL and a
 * real Redis (sessions, channels and presence there, as a deployment of several processes has
 * them), under a NAME of this run's own, from which every Redis prefix derives.
 */
const postgres = usePostgresSchema("client_socket");
const { prefix } = useTestRedis("client-socket");
const env = { DATABASE_URL: postgres.url, REDIS_URL: TEST_REDIS_URL, NAME: `${prefix}app` };
useTestServer({ appDir: SAMPLE_APP, env });
beforeEach(truncateAll);

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
const grace = { name: "Grace Hopper", email: "grace@example.com", password: "compiling compilers" };

type Frame = Record<string, any>;

/** A client whose sockets are real WebSockets that keep the frames they send and receive. */
function recordingClient(url = serverUrl()) {
  const sent: Frame[] = [];
  const received: Frame[] = [];
  class RecordingWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols);
      this.addEventListener("message", (event) => received.push(JSON.parse(String(event.data))));
    }
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
      sent.push(JSON.parse(String(data)));
      super.send(data);
    }
  }
  return { client: createClient<AppActions>({ url, WebSocket: RecordingWebSocket }), sent, received };
}

const sockets: { close(): void }[] = [];
afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));

/** An open socket of `client`'s, closed after the test. */
async function openSocket<C extends ClientChannels<C> = {}>(client?: HeraldClient<AppActions, C>, options?: Parameters<HeraldClient<AppActions>["socket"]>[0]) {
  const socket = (client ?? createClient<AppActions, C>({ url: serverUrl() })).socket(options);
  sockets.push(socket);
  await socket.opened();
  return socket;
}

/** A client signed in as `user` over HTTP. */
async function signedInClient(user: typeof ada, url = serverUrl()) {
  const client = createClient<AppActions>({ url });
  await client.call("user:create", user).catch(() => undefined);
  await client.call("session:create", { email: user.email, password: user.password });
  return client;
}

test("a call over the socket resolves with what the action returned, as over HTTP", async () => {
  const { client, sent, received } = recordingClient();
  const socket = await openSocket(client);
  const { user } = await socket.call("user:create", ada);
  expect(user).toEqual({ id: expect.any(Number), name: ada.name, email: ada.email, created_at: expect.any(String), updated_at: expect.any(String) });
  expect(sent).toEqual([{ messageType: "action", messageId: 1, action: "user:create", params: ada }]);
  expect(received).toEqual([{ messageId: 1, response: { user } }]);
  // Params may be left out when none is required.
  expect((await socket.call("messages:list")).pagination.total).toBe(0);
});

test("many calls in flight at once are each matched to their answer by messageId", async () => {
  // As many as the server runs together for one connection (MAX_CONCURRENT_CALLS_PER_CONNECTION, 8 by default).
  const socket = await openSocket();
  const people = Array.from({ length: 8 }, (_, index) => ({ name: `Person ${index}`, email: `person${index}@example.com`, password: "long enough password" }));
  const created = await Promise.all(people.map((person) => socket.call("user:create", person)));
  expect(created.map(({ user }) => user.email)).toEqual(people.map((person) => person.email));
  expect(new Set(created.map(({ user }) => user.id)).size).toBe(people.length);
});

test("an error answered over the socket rejects as a HeraldClientError with its HTTP status, narrowed by errorOf", async () => {
  const client = createClient<AppActions>({ url: serverUrl() });
  const socket = await openSocket(client);
  await expectUserCreateErrors(client, (user) => socket.call("user:create", user), ada);
  // The socket goes on after errors.
  expect((await socket.call("messages:list", { limit: 1 })).pagination.limit).toBe(1);
});

test("a sign-in over the socket is the socket's own; a sign-in over HTTP goes with the client's sockets", async () => {
  const anonymous = await openSocket();
  await anonymous.call("user:create", ada);
  await expect(anonymous.call("session:view")).rejects.toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", status: 401 });
  await anonymous.call("session:create", { email: ada.email, password: ada.password });
  expect((await anonymous.call("session:view")).user.email).toBe(ada.email);

  const client = await signedInClient(grace);
  const socket = await openSocket(client);
  expect((await socket.call("session:view")).user.email).toBe(grace.email);
});

test("a subscriber receives the messages another client's message:create publishes, until it unsubscribes", async () => {
  // Typed by AppChannels: a messages:list row.
  const listener = await openSocket(createClient<AppActions, AppChannels>({ url: serverUrl() }));
  const received: { id: number; body: string; user_name: string | null }[] = [];
  const unsubscribe = await listener.subscribe("messages", (message) => received.push(message));

  const author = await signedInClient(ada);
  const { message } = await author.call("message:create", { body: "Hello, listeners" });
  await waitFor(() => received.length === 1);
  expect(received).toEqual([{ id: message.id, body: "Hello, listeners", user_name: ada.name }]);

  // Unsubscribed, the socket is no longer sent the channel's messages; a second subscriber of the
  // same socket shows that the next one still travels, and the first listener's copy does not.
  await unsubscribe();
  const later: unknown[] = [];
  await listener.subscribe("messages", (next) => later.push(next.body));
  await author.call("message:create", { body: "Only for the second" });
  await waitFor(() => later.length === 1);
  expect(later).toEqual(["Only for the second"]);
  expect(received).toHaveLength(1);
});

test("a channel the app does not have is refused with a HeraldClientError naming the channel", async () => {
  const socket = await openSocket();
  const refused = await socket.subscribe("nowhere", () => undefined).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(HeraldClientError);
  expect(refused).toMatchObject({ action: "", channel: "nowhere", status: 400, type: "CONNECTION_CHANNEL_VALIDATION", key: "channel" });
});

test("a call made while the socket is not connected rejects at once with SocketClosedError, and sends nothing", async () => {
  const { client, sent } = recordingClient();
  const socket = client.socket();
  sockets.push(socket);
  await expect(socket.call("status")).rejects.toThrow(SocketClosedError);
  await expect(socket.subscribe("messages", () => undefined)).rejects.toThrow(SocketClosedError);
  await socket.opened();
  expect(await socket.call("status")).toMatchObject({ name: expect.any(String) });

  socket.close();
  await expect(socket.call("status")).rejects.toThrow(new SocketClosedError());
  await expect(socket.opened()).rejects.toThrow(SocketClosedError);
  expect(sent.map((frame) => frame.action)).toEqual(["status"]);
});

test("an aborted call rejects with the signal's reason; its late answer is dropped and the socket goes on", async () => {
  const { client, sent, received } = recordingClient();
  const socket = await openSocket(client);
  const controller = new AbortController();
  const call = socket.call("messages:list", {}, { signal: controller.signal });
  controller.abort(new Error("changed my mind"));
  await expect(call).rejects.toThrow("changed my mind");
  await waitFor(() => received.some((frame) => frame.messageId === 1));
  expect((await socket.call("messages:list", { limit: 2 })).pagination.limit).toBe(2);

  // A signal already aborted sends nothing.
  await expect(socket.call("status", {}, { signal: AbortSignal.abort(new Error("too late")) })).rejects.toThrow("too late");
  expect(sent.map((frame) => frame.messageId)).toEqual([1, 2]);
});

describe("when the server restarts", () => {
  let server: HeraldServer | undefined;
  const boot = (port = "0") => startTestServer({ appDir: SAMPLE_APP, env: { ...env, PORT: port } });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  test("the socket reconnects on the same URL and renews its subscriptions", async () => {
    server = await boot();
    const url = server.url!;
    const { client, received: frames } = recordingClient(url);
    const socket = await openSocket(client, { reconnect: { initialDelayMs: 20, maxDelayMs: 200 } });
    const events: string[] = [];
    socket.on("open", () => events.push("open"));
    socket.on("close", (code) => events.push(`close ${code}`));
    socket.on("reconnecting", () => events.includes("reconnecting") || events.push("reconnecting"));
    const received: { body: string }[] = [];
    await socket.subscribe<{ body: string }>("messages", (message) => received.push(message));

    await server.stop();
    await waitFor(() => events.includes("reconnecting"));
    expect(events).toEqual(["close 1001", "reconnecting"]);
    await expect(socket.call("status")).rejects.toThrow(SocketClosedError);

    frames.length = 0;
    server = await boot(new URL(url).port);
    expect(server.url).toBe(url);
    await socket.opened();
    // The renewed subscription is live once the server confirms it on the new connection.
    await waitFor(() => frames.some((frame) => frame.subscribed?.channel === "messages"));
    // And then says so: `open` after a reconnection comes once the renewals are answered.
    await waitFor(() => events.at(-1) === "open");

    const author = await signedInClient(ada, url);
    await author.call("message:create", { body: "After the restart" });
    await waitFor(() => received.length === 1);
    expect(received[0]!.body).toBe("After the restart");
    // Two boots and a stop of the sample app and a sign-up (two password hashes): on a busy
    // machine more than the default 30 s; every wait inside is bounded by an event.
  }, 120_000);
});

test("a call in flight when the connection drops rejects with SocketClosedError, and the socket connects again", async () => {
  const proxy = await TcpProxy.start({ host: "127.0.0.1", port: Number(new URL(serverUrl()).port) });
  try {
    const socket = await openSocket(createClient<AppActions>({ url: `http://127.0.0.1:${proxy.port}` }), { reconnect: { initialDelayMs: 20, maxDelayMs: 200 } });
    const closes: number[] = [];
    socket.on("close", (code) => closes.push(code));
    // Frozen, the connection carries nothing: the call is sent and never answered.
    proxy.freeze();
    const inFlight = socket.call("messages:list").catch((error: unknown) => error);
    proxy.cut();
    expect(await inFlight).toBeInstanceOf(SocketClosedError);
    expect(closes).toEqual([1006]);

    proxy.restore();
    await socket.opened();
    expect((await socket.call("messages:list", { limit: 3 })).pagination.limit).toBe(3);
  } finally {
    await proxy.close();
  }
});

test("a socket whose first attempts to connect fail keeps trying, and opens once the server answers", async () => {
  const proxy = await TcpProxy.start({ host: "127.0.0.1", port: Number(new URL(serverUrl()).port) });
  const nowhere = await TcpProxy.start({ host: "127.0.0.1", port: 1 });
  const nowherePort = nowhere.port;
  await nowhere.close();
  try {
    // Refused by the OS (nothing listens), then reset by the relay: Node.js 22 reports either as an error alone.
    for (const port of [nowherePort, proxy.port]) {
      if (port === proxy.port) proxy.refuseNew();
      const socket = createClient<AppActions>({ url: `http://127.0.0.1:${port}` }).socket({ reconnect: { initialDelayMs: 20, maxDelayMs: 100 } });
      sockets.push(socket);
      const attempts: number[] = [];
      socket.on("reconnecting", (attempt) => attempts.push(attempt));
      await waitFor(() => attempts.length >= 3);
      if (port === proxy.port) {
        proxy.restore();
        await socket.opened();
        expect((await socket.call("messages:list", { limit: 1 })).pagination.limit).toBe(1);
      }
    }
  } finally {
    await proxy.close();
  }
});
