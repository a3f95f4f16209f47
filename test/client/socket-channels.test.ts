import { join } from "node:path";
import { createClient, HeraldClientError, type HeraldSocket } from "herald/client";
import { serverUrl, useTestServer, waitFor } from "herald/testing";
import { TcpProxy } from "../support/tcp-proxy";

/** Channel subscriptions and presence over the client's socket, against the WebSocket test app's channels. */
useTestServer({ appDir: join(__dirname, "../fixtures/apps/websocket"), env: { REDIS_URL: "" } });

type Errors = { type: "CONNECTION_ACTION_PARAM_VALIDATION"; status: 422 };
/** The app's actions the tests call, written as `herald generate client-types` would write them. */
interface WebSocketActions {
  "ws:identify": { params: { name: string }; outputs: { name: string }; errors: Errors; transports: "websocket" };
  "ws:publish": { params: { channel: string; message?: unknown }; outputs: { published: true }; errors: Errors; transports: "websocket" };
}

const sockets: HeraldSocket<WebSocketActions>[] = [];
afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));

async function openSocket(url = serverUrl()) {
  const socket = createClient<WebSocketActions>({ url }).socket({ reconnect: { initialDelayMs: 20, maxDelayMs: 200 } });
  sockets.push(socket);
  await socket.opened();
  return socket;
}

test("presence listeners see the keys of a presence channel join and leave", async () => {
  const ada = await openSocket();
  await ada.call("ws:identify", { name: "ada" });
  const seen: string[] = [];
  ada.onPresence("room:client-presence", (event, key) => seen.push(`${event} ${key}`));
  await ada.subscribe("room:client-presence", () => undefined);

  const bob = await openSocket();
  await bob.call("ws:identify", { name: "bob" });
  await bob.subscribe("room:client-presence", () => undefined);
  await waitFor(() => seen.includes("join bob"));
  bob.close();
  await waitFor(() => seen.includes("leave bob"));
  expect(seen).toEqual(["join ada", "join bob", "leave bob"]);
});

test("a subscription the channel refuses rejects with its HeraldClientError, and delivers nothing", async () => {
  const socket = await openSocket();
  const received: unknown[] = [];
  const refused = await socket.subscribe("closed", (message) => received.push(message)).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(HeraldClientError);
  expect(refused).toMatchObject({ channel: "closed", type: "CONNECTION_CHANNEL_AUTHORIZATION", status: 403, key: "channel" });

  await socket.subscribe<{ text: string }>("lobby", (message) => received.push(message.text));
  await socket.call("ws:publish", { channel: "closed", message: { text: "not for you" } });
  await socket.call("ws:publish", { channel: "lobby", message: { text: "hello" } });
  await waitFor(() => received.length > 0);
  expect(received).toEqual(["hello"]);
});

test("a subscription the channel refuses to renew after a reconnection ends, reported as an error event", async () => {
  const proxy = await TcpProxy.start({ host: "127.0.0.1", port: Number(new URL(serverUrl()).port) });
  try {
    const socket = await openSocket(`http://127.0.0.1:${proxy.port}`);
    const errors: HeraldClientError[] = [];
    socket.on("error", (error) => errors.push(error));
    // Private channels admit a connection that said it is Ada; a new connection has said nothing.
    await socket.call("ws:identify", { name: "ada" });
    await socket.subscribe("private:diary", () => undefined);
    const lobby: unknown[] = [];
    await socket.subscribe("lobby", (message) => lobby.push(message));

    proxy.cut();
    proxy.restore();
    await waitFor(() => errors.length === 1);
    expect(errors[0]).toMatchObject({ channel: "private:diary", type: "CONNECTION_CHANNEL_AUTHORIZATION", status: 403 });

    // The lobby was renewed.
    await waitFor(async () => {
      await socket.call("ws:publish", { channel: "lobby", message: "still here" });
      return lobby.length > 0;
    });
  } finally {
    await proxy.close();
  }
});
