import { join } from "node:path";
import { ChannelPublisher, ErrorType } from "herald";
import { testServer, useTestServer, waitFor } from "herald/testing";
import { gates } from "../../fixtures/apps/websocket/gates";
import { TestSocket } from "./support/test-socket";
import { ChannelBroker } from "../../../src/channels/channel-broker";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/websocket"), env: { REDIS_URL: "" } });

const publish = (channel: string, message: unknown) => testServer().container.resolve(ChannelPublisher).publish(channel, message);

let socket: TestSocket;
beforeEach(async () => {
  socket = await TestSocket.open();
});
afterEach(() => socket.close());

describe("action messages", () => {
  test("are answered with the messageId and the action's response", async () => {
    const reply = await socket.request({ messageType: "action", messageId: "a-1", action: "ws:echo", params: { text: "hi", times: 2 } });
    expect(reply).toEqual({ messageId: "a-1", response: { text: "hihi", connectionType: "websocket" } });
  });

  test("a numeric messageId is echoed as sent, and params may be left out", async () => {
    const reply = await socket.request({ messageType: "action", messageId: 7, action: "ws:count" });
    expect(reply).toMatchObject({ messageId: 7, response: { count: 1 } });
  });

  test("params are validated by the action's schema; a failure is the core error body", async () => {
    const reply = await socket.action("ws:echo", { text: "" });
    expect(Object.keys(reply).sort()).toEqual(["error", "messageId"]);
    expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION, key: "text" });
    expect(typeof reply.error.message).toBe("string");
    expect(new Date(reply.error.timestamp).toISOString()).toBe(reply.error.timestamp);
  });

  test("a TypedError thrown by the action is the error reply", async () => {
    const reply = await socket.action("ws:fail");
    expect(reply.error).toMatchObject({ message: "not today", type: ErrorType.CONNECTION_FORBIDDEN });
  });

  test("a response JSON cannot carry becomes a CONNECTION_SERVER_ERROR reply", async () => {
    const reply = await socket.action("ws:bigint");
    expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_SERVER_ERROR });
  });

  test("every message of a socket runs on the socket's one connection", async () => {
    const first = await socket.action("ws:count");
    const second = await socket.action("ws:count");
    expect(second.response).toEqual({ count: 2, connectionId: first.response.connectionId });
    const other = await TestSocket.open();
    const elsewhere = await other.action("ws:count");
    await other.close();
    expect(elsewhere.response.count).toBe(1);
    expect(elsewhere.response.connectionId).not.toBe(first.response.connectionId);
  });

  test("many requests are in flight at once, each answered when it finishes", async () => {
    const held = socket.request({ messageType: "action", messageId: "held", action: "ws:gate", params: { gate: "in-flight" } });
    await gates.entered("in-flight");
    const quick = await socket.action("ws:echo", { text: "quick" });
    expect(quick.response.text).toBe("quick");
    expect(socket.received.some((message) => message.messageId === "held")).toBe(false);
    gates.open("in-flight");
    expect(await held).toEqual({ messageId: "held", response: { gate: "in-flight", outcome: "opened" } });
    const order = socket.received.map((message) => message.messageId);
    expect(order.indexOf(quick.messageId)).toBeLessThan(order.indexOf("held"));
  });
});

test("permessage-deflate is not negotiated, even when the client offers it", async () => {
  const offering = await TestSocket.open(undefined, { perMessageDeflate: true });
  try {
    expect(offering.upgradeHeaders["sec-websocket-extensions"]).toBeUndefined();
    expect(offering.ws.extensions).toBe("");
    expect((await offering.action("ws:echo", { text: "plain" })).response.text).toBe("plain");
  } finally {
    await offering.close();
  }
});

describe("subscribe and unsubscribe", () => {
  test("are acknowledged, and the channel's messages arrive in between", async () => {
    expect(await socket.request({ messageType: "subscribe", messageId: "s-1", channel: "lobby" })).toEqual({
      messageId: "s-1",
      subscribed: { channel: "lobby" },
    });
    await publish("lobby", { hello: "world" });
    expect(await socket.published("lobby", { hello: "world" })).toEqual({
      messageType: "message",
      channel: "lobby",
      message: { hello: "world" },
    });
    expect(await socket.request({ messageType: "unsubscribe", messageId: "u-1", channel: "lobby" })).toEqual({
      messageId: "u-1",
      unsubscribed: { channel: "lobby" },
    });

    // A message to a still-subscribed channel, published later, proves the earlier one is not coming.
    await socket.subscribe("room:sentinel");
    await publish("lobby", { after: "unsubscribe" });
    await publish("room:sentinel", { sentinel: 1 });
    await socket.published("room:sentinel", { sentinel: 1 });
    expect(socket.received.some((message) => message.message?.after)).toBe(false);
  });

  test("any JSON value can be published, and null stands for nothing", async () => {
    await socket.subscribe("lobby");
    for (const value of ["text", 42, [1, "two"], null]) {
      await publish("lobby", value);
      await socket.published("lobby", value);
    }
    await publish("lobby", undefined);
    await waitFor(() => socket.received.filter((message) => message.messageType === "message" && message.message === null).length === 2);
  });

  test("subscribing twice is acknowledged twice, and each message still arrives once", async () => {
    await socket.subscribe("lobby");
    const again = await socket.subscribe("lobby");
    expect(again.subscribed).toEqual({ channel: "lobby" });
    await publish("lobby", { once: true });
    await publish("room:twice-sentinel", { ignored: true });
    await socket.subscribe("room:twice-sentinel");
    await publish("room:twice-sentinel", { last: true });
    await socket.published("room:twice-sentinel", { last: true });
    expect(socket.received.filter((message) => message.message?.once).length).toBe(1);
  });

  test("unsubscribing from a channel the socket is not on is acknowledged", async () => {
    expect((await socket.unsubscribe("lobby")).unsubscribed).toEqual({ channel: "lobby" });
  });

  test("an action publishes through the injected ChannelPublisher to every subscriber", async () => {
    const other = await TestSocket.open();
    await socket.subscribe("lobby");
    await other.subscribe("lobby");
    const reply = await other.action("ws:publish", { channel: "lobby", message: { from: "action" } });
    expect(reply.response).toEqual({ published: true });
    await socket.published("lobby", { from: "action" });
    await other.published("lobby", { from: "action" });
    await other.close();
  });

  test("publishing to an invalid channel name is refused", async () => {
    const reply = await socket.action("ws:publish", { channel: "no spaces", message: 1 });
    expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_CHANNEL_VALIDATION, key: "channel" });
  });

  test("a closed socket's subscriptions end", async () => {
    const broker = testServer().container.resolve(ChannelBroker);
    const other = await TestSocket.open();
    await other.subscribe("room:closing");
    expect(broker.listenerCount("room:closing")).toBe(1);
    await other.close();
    await waitFor(() => broker.listenerCount("room:closing") === 0);
  });
});
