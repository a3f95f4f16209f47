import { join } from "node:path";
import { ErrorType } from "herald";
import { useTestServer } from "herald/testing";
import { ServerMessage, TestSocket } from "./support/test-socket";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/websocket"), env: { REDIS_URL: "" } });

let socket: TestSocket;
beforeAll(async () => {
  socket = await TestSocket.open();
});
afterAll(() => socket.close());

/** Sends raw text and resolves with the next error message that carries no messageId. */
async function sendRaw(text: string | Buffer): Promise<ServerMessage> {
  const already = socket.received.length;
  const reply = socket.next((message) => socket.received.indexOf(message) >= already && !("messageId" in message));
  socket.ws.send(text);
  return reply;
}

// One socket takes every bad message in turn: after each, it must still answer a good one.
afterEach(async () => {
  const reply = await socket.action("ws:echo", { text: "still here" });
  expect(reply.response.text).toBe("still here");
});

test("text that is not JSON", async () => {
  const reply = await sendRaw("{not json");
  expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING, message: "A message must be a JSON object" });
});

test("JSON that is not an object", async () => {
  for (const text of ["[1,2]", "42", "null", '"action"']) {
    const reply = await sendRaw(text);
    expect(reply.error.type).toBe(ErrorType.CONNECTION_ACTION_PARAM_FORMATTING);
  }
});

test("a binary frame holding a JSON message is read like a text one", async () => {
  const reply = socket.next((message) => message.messageId === "binary");
  socket.ws.send(Buffer.from(JSON.stringify({ messageType: "action", messageId: "binary", action: "ws:echo", params: { text: "b" } })));
  expect((await reply).response.text).toBe("b");
});

test("a missing messageId", async () => {
  const reply = await sendRaw(JSON.stringify({ messageType: "action", action: "ws:echo", params: { text: "x" } }));
  expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_REQUIRED, key: "messageId" });
});

test("a messageId that is neither a string nor a number", async () => {
  const reply = await sendRaw(JSON.stringify({ messageType: "action", messageId: { id: 1 }, action: "ws:echo" }));
  expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION, key: "messageId" });
});

test("an unknown messageType", async () => {
  const reply = await socket.request({ messageType: "shout", action: "ws:echo" });
  expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION, key: "messageType", value: "shout" });
  const missing = await socket.request({ action: "ws:echo" });
  expect(missing.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION, key: "messageType" });
});

test("an action message without an action", async () => {
  const reply = await socket.request({ messageType: "action", params: {} });
  expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_REQUIRED, key: "action" });
});

test("params that are not an object", async () => {
  const reply = await socket.request({ messageType: "action", action: "ws:echo", params: ["text"] });
  expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING, key: "params" });
});

test("an unknown action", async () => {
  const reply = await socket.action("ws:nope");
  expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_NOT_FOUND, value: "ws:nope" });
});

test("channel names failing CHANNEL_NAME_PATTERN", async () => {
  for (const channel of ["", "has space", "x".repeat(201), "emoji-🙂", "slash/name"]) {
    const reply = await socket.subscribe(channel);
    expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_CHANNEL_VALIDATION, key: "channel" });
  }
  const unsubscribe = await socket.unsubscribe("has space");
  expect(unsubscribe.error.type).toBe(ErrorType.CONNECTION_CHANNEL_VALIDATION);
  const missing = await socket.request({ messageType: "subscribe" });
  expect(missing.error).toMatchObject({ type: ErrorType.CONNECTION_CHANNEL_VALIDATION, key: "channel" });
});

test("a valid name that no channel of the app matches is refused", async () => {
  const reply = await socket.subscribe("nowhere");
  expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_CHANNEL_VALIDATION, key: "channel", value: "nowhere" });
  const almost = await socket.subscribe("room:UPPER");
  expect(almost.error.type).toBe(ErrorType.CONNECTION_CHANNEL_VALIDATION);
});
