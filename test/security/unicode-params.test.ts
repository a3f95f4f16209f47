import { join } from "node:path";
import { serverUrl, useTestServer } from "herald/testing";
import { WsClient } from "../reliability/support/ws-client";

/**
 * Text that is not well-formed Unicode never reaches an action: a body of invalid UTF-8 is not
 * read with U+FFFD in place of its bytes, and a lone surrogate (a `\ud800` escape in JSON) is
 * refused wherever it is in the params, over HTTP, WebSocket and MCP alike. Both are 400
 * CONNECTION_ACTION_PARAM_FORMATTING; the action would otherwise store something other than what
 * was sent, or text no UTF-8 store or client can hold.
 */
useTestServer({ appDir: join(__dirname, "fixtures/app"), env: { REDIS_URL: "", LOG_LEVEL: "fatal" } });

const FORMATTING = "CONNECTION_ACTION_PARAM_FORMATTING";

async function put(body: string | Uint8Array<ArrayBuffer>, type = "application/json"): Promise<{ status: number; body: any }> {
  const response = await fetch(`${serverUrl()}/api/message`, { method: "PUT", headers: { "content-type": type }, body });
  return { status: response.status, body: await response.json() };
}

/** Bytes of `before`, then 0xff (never valid in UTF-8), then `after`. */
function withInvalidByte(before: string, after: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array([...Buffer.from(before), 0xff, ...Buffer.from(after)]);
}

describe("HTTP", () => {
  test("a JSON body that is not valid UTF-8 is 400, not stored with U+FFFD", async () => {
    const answer = await put(withInvalidByte('{"body":"a', 'b","userId":1}'));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: FORMATTING, key: "body" });
  });

  test("a form body that is not valid UTF-8 is 400", async () => {
    const answer = await put(withInvalidByte("body=a", "b&userId=1"), "application/x-www-form-urlencoded");
    expect(answer.status).toBe(400);
    expect(answer.body.error.type).toBe(FORMATTING);
  });

  test.each([
    ["a string", '{"body":"a\\ud800b","userId":1}'],
    ["an array item", '{"body":"b","userId":1,"tags":["ok","\\udfff"]}'],
    ["a nested key", '{"body":"b","userId":1,"meta":{"deep":{"\\ud83dx":1}}}'],
  ])("a lone surrogate in %s is 400", async (_where, json) => {
    const answer = await put(json);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: FORMATTING, key: "params" });
  });

  test("a surrogate pair (an emoji escaped) is well-formed and reaches the action", async () => {
    const answer = await put('{"body":"smile \\ud83d\\ude00","userId":1}');
    expect(answer.status).toBe(200);
    expect(answer.body.message.body).toBe("smile \u{1f600}");
  });
});

test("WebSocket: a lone surrogate in a message's params is refused", async () => {
  const socket = await WsClient.open(serverUrl());
  try {
    const reply = socket.next((message) => message.messageId === "lone");
    socket.ws.send('{"messageType":"action","messageId":"lone","action":"message:post","params":{"body":"a\\udc00","userId":1}}');
    expect((await reply).error).toMatchObject({ type: FORMATTING, key: "params" });
  } finally {
    socket.close();
  }
});

describe("MCP", () => {
  async function rpc(body: string | Uint8Array<ArrayBuffer>): Promise<{ status: number; message: any }> {
    const response = await fetch(`${serverUrl()}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
    });
    const text = await response.text();
    const data = (response.headers.get("content-type") ?? "").includes("text/event-stream")
      ? text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("")
      : text;
    return { status: response.status, message: JSON.parse(data) };
  }

  test("a body that is not valid UTF-8 is 400 with the error body, before MCP reads it", async () => {
    const answer = await rpc(withInvalidByte('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"message-post","arguments":{"body":"a', 'b","userId":1}}}'));
    expect(answer.status).toBe(400);
    expect(answer.message.error.type).toBe(FORMATTING);
  });

  test("a lone surrogate in a tool's arguments is a tool error, the action never runs", async () => {
    const answer = await rpc('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"message-post","arguments":{"body":"a\\ud800","userId":1}}}');
    expect(answer.message.result.isError).toBe(true);
    expect(answer.message.result.structuredContent.error).toMatchObject({ type: FORMATTING, key: "params" });
  });
});
