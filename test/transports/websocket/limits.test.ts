import { join } from "node:path";
import { Socket, connect } from "node:net";
import { ChannelPublisher, ErrorType, WS_CLOSE_CODE } from "herald";
import { testServer, useTestServer, waitFor } from "herald/testing";
import { TestSocket, wsUrl } from "./support/test-socket";
import { jsonLogs, type LogLine } from "../../support/json-logs";

const appDir = join(__dirname, "../../fixtures/apps/websocket");

/** A server of the enclosing describe block's own, with its log lines kept for the test to read. */
function useServerWith(env: Record<string, string>): LogLine[] {
  const { stream, lines } = jsonLogs();
  useTestServer({ appDir, env: { REDIS_URL: "", LOG_FORMAT: "json", ...env }, logDestination: stream });
  return lines;
}

describe("message size", () => {
  useServerWith({ WS_MAX_MESSAGE_SIZE: "1kb" });

  test("a message over WS_MAX_MESSAGE_SIZE gets CONNECTION_PAYLOAD_TOO_LARGE and the socket stays open", async () => {
    const socket = await TestSocket.open();
    const reply = socket.next((message) => message.error?.type === ErrorType.CONNECTION_PAYLOAD_TOO_LARGE);
    socket.send({ messageType: "action", messageId: "big", action: "ws:echo", params: { text: "x".repeat(2000) } });
    expect((await reply).messageId).toBeUndefined();
    expect((await socket.action("ws:echo", { text: "x".repeat(900) })).response.text).toHaveLength(900);
    await socket.close();
  });

  test("a frame over four times the limit closes the socket with 1009", async () => {
    const socket = await TestSocket.open();
    socket.send("x".repeat(4 * 1024 + 1));
    expect((await socket.closed).code).toBe(WS_CLOSE_CODE.frameTooLarge);
  });
});

describe("what params may hold", () => {
  useServerWith({ PARAMS_MAX_KEYS: "10", PARAMS_MAX_VALUES: "50" });

  test.each([
    ["more keys in one object than PARAMS_MAX_KEYS", { text: "x", ...Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`k${index}`, index])) }],
    ["more values in all than PARAMS_MAX_VALUES", { text: "x", list: Array.from({ length: 50 }, () => 1) }],
  ])("params of %s get CONNECTION_PAYLOAD_TOO_LARGE, as on HTTP, and the socket stays open", async (_name, params) => {
    const socket = await TestSocket.open();
    const reply = socket.next((message) => message.messageId === "many");
    socket.send({ messageType: "action", messageId: "many", action: "ws:echo", params });
    expect((await reply).error).toMatchObject({ type: ErrorType.CONNECTION_PAYLOAD_TOO_LARGE, key: "params" });
    expect((await socket.action("ws:echo", { text: "ok" })).response.text).toBe("ok");
    await socket.close();
  });
});

describe("messages per second", () => {
  const logs = useServerWith({ WS_MAX_MESSAGES_PER_SECOND: "5", LOG_LEVEL: "info" });

  test("the first message past the budget gets CONNECTION_RATE_LIMITED with its messageId, the rest are not run; later ones are served", async () => {
    const socket = await TestSocket.open();
    const ids = Array.from({ length: 8 }, (_, index) => `burst-${index}`);
    for (const messageId of ids) socket.send({ messageType: "action", messageId, action: "ws:echo", params: { text: messageId } });
    // The bucket refills: the socket is served again, after the burst (messages are read in order).
    // A probe may itself be dropped unanswered, so each poll sends a new one rather than awaiting it.
    let probes = 0;
    const probeUntilServed = () => {
      if (socket.received.some((message) => String(message.response?.text).startsWith("again-"))) return true;
      probes += 1;
      socket.send({ messageType: "action", messageId: `again-${probes}`, action: "ws:echo", params: { text: `again-${probes}` } });
      return false;
    };
    await waitFor(probeUntilServed, { timeout: 10_000, interval: 250 });
    const answers = socket.received.filter((message) => ids.includes(message.messageId));
    const limited = answers.filter((reply) => reply.error?.type === ErrorType.CONNECTION_RATE_LIMITED);
    const served = answers.filter((reply) => reply.response);
    expect(limited.length).toBeGreaterThan(0);
    expect(served.length).toBeGreaterThanOrEqual(5);
    expect(new Set(served.map((reply) => reply.response.text))).toEqual(new Set(served.map((reply) => reply.messageId)));
    // A message after a refusal is answered only once one is served in between.
    expect(limited.length).toBeLessThanOrEqual(served.length + 1);
    await waitFor(() => logs.some((line) => String(line.params?.text).startsWith("again-")));
    const ran = new Set(logs.map((line) => line.params?.text).filter((text) => ids.includes(text)));
    expect(ran).toEqual(new Set(served.map((reply) => reply.messageId)));
    await socket.close();
  });
});

describe("subscriptions per connection", () => {
  useServerWith({ WS_MAX_SUBSCRIPTIONS: "2" });

  test("a subscription beyond WS_MAX_SUBSCRIPTIONS is refused until one ends", async () => {
    const socket = await TestSocket.open();
    await socket.subscribe("room:one");
    await socket.subscribe("room:two");
    const third = await socket.subscribe("room:three");
    expect(third.error).toMatchObject({ type: ErrorType.CONNECTION_CHANNEL_VALIDATION, key: "channel", value: "room:three" });
    expect((await socket.subscribe("room:two")).subscribed).toEqual({ channel: "room:two" });
    await socket.unsubscribe("room:one");
    expect((await socket.subscribe("room:three")).subscribed).toEqual({ channel: "room:three" });
    await socket.close();
  });
});

describe("ping and pong", () => {
  useServerWith({ WS_PING_INTERVAL: "100" });

  test("a peer that answers pings stays connected", async () => {
    const socket = await TestSocket.open();
    let pings = 0;
    socket.ws.on("ping", () => (pings += 1));
    await waitFor(() => pings >= 3);
    expect((await socket.action("ws:echo", { text: "alive" })).response.text).toBe("alive");
    await socket.close();
  });

  test("a peer that stops answering pings is dropped", async () => {
    const socket = await TestSocket.open(wsUrl(), { autoPong: false });
    const { code } = await socket.closed;
    expect(code).toBe(1006);
  });
});

describe("a client that does not read", () => {
  const logs = useServerWith({ WS_MAX_BUFFERED: "256kb", LOG_LEVEL: "info" });

  test("is closed with 1008 once its send buffer passes WS_MAX_BUFFERED, and what it sends after that is not run", async () => {
    let tcp!: Socket;
    const socket = await TestSocket.open(wsUrl(), {
      createConnection: (options: any) => (tcp = connect(options.port, options.host)),
    } as any);
    await socket.subscribe("lobby");
    tcp.pause();
    const publisher = testServer().container.resolve(ChannelPublisher);
    const chunk = "y".repeat(64 * 1024);
    const slowReaderClosed = () => logs.some((line) => line.msg === "websocket client is not reading what it is sent: closing it");
    for (let sent = 0; !slowReaderClosed() && sent < 2000; sent += 1) {
      await publisher.publish("lobby", { sent, chunk });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(slowReaderClosed()).toBe(true);
    // Sent after the server's close frame, which the client has not read: no answer can reach it,
    // so the server must not run them either.
    for (let late = 0; late < 5; late += 1) socket.send({ messageType: "action", messageId: `late-${late}`, action: "ws:echo", params: { text: `late-${late}` } });
    tcp.resume();
    // The client answers the close frame after its messages, so the server has read them all by now.
    expect((await socket.closed).code).toBe(WS_CLOSE_CODE.slowReader);
    const other = await TestSocket.open();
    expect((await other.action("ws:echo", { text: "after" })).response.text).toBe("after");
    await other.close();
    await waitFor(() => logs.some((line) => line.params?.text === "after"));
    expect(logs.filter((line) => String(line.params?.text).startsWith("late-"))).toEqual([]);
  });
});
