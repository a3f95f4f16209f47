import { join } from "node:path";
import fc from "fast-check";
import { HOOK_TIMEOUT, serverUrl, useTestServer } from "herald/testing";
import { WsClient } from "../reliability/support/ws-client";
import { assertErrorBody, assertWellFormedAnswer, corruptText, HostileCall, hostileCall, parsedOrText, prototypeSnapshot } from "./support/hostile";

/**
 * Property-based hostile input on every network transport: params generated from the shapes of
 * the sample app's inputs, then spoiled (wrong types, huge strings, deep nesting, unicode edge
 * cases, prototype keys), and text that is not JSON at all. Every answer must be a success or a
 * typed client error; the prototypes of this process must come out untouched.
 */
useTestServer({
  appDir: join(__dirname, "fixtures/app"),
  env: { REDIS_URL: "", WS_MAX_MESSAGES_PER_SECOND: "1000000", LOG_LEVEL: "fatal" },
});

const RUNS = 150;

/** Inputs that once broke a transport or this harness, run first on every one: an object whose `toString` is not a function, a prototype key reaching the secret redaction, and a body nested 50 000 deep. */
const REGRESSIONS: [HostileCall][] = [
  [{ action: "messages:list", paramsText: '[[{"toString":"a@a.aa"}]]' }],
  [{ action: "user:signup", paramsText: '{"name":"Ada","email":"ada@example.com","password":"12345678","__proto__":{"polluted":"yes"}}' }],
  [{ action: "profile:update", paramsText: '{"id":1,"constructor":{"prototype":{"polluted":"yes"}}}' }],
  [{ action: "message:post", paramsText: `{"body":"b","userId":1,"meta":{"a":${"[".repeat(50_000)}1${"]".repeat(50_000)}}}` }],
  // A lone surrogate in a top-level string, which the query string of a GET must still carry.
  [{ action: "messages:list", paramsText: '"a\\udfffb"' }],
];
const prototypesBefore = prototypeSnapshot();

afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  expect(prototypeSnapshot()).toEqual(prototypesBefore);
});

const ROUTES: Record<string, { method: string; path: (params: unknown) => string }> = {
  "user:signup": { method: "PUT", path: () => "/user" },
  "messages:list": { method: "GET", path: () => "/messages/list" },
  "message:post": { method: "PUT", path: () => "/message" },
  "profile:update": {
    method: "PATCH",
    path: (params) => `/profile/${encodeURIComponent(textOf((params as { id?: unknown } | null)?.id ?? "none"))}`,
  },
};

/** The JSON of a value, or (nested too deep for this process to write) a stand-in. */
function jsonOrStandIn(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return "[deep]";
  }
}

/** Any parsed JSON value as text; `String()` alone throws on an object whose `toString` is not a function. */
function textOf(value: unknown): string {
  return typeof value === "object" && value !== null ? jsonOrStandIn(value) : String(value);
}

/** A GET's params travel in the query string, which is flat: each top-level value as text (objects as JSON). */
function queryOf(params: unknown): string {
  // URLSearchParams, unlike encodeURIComponent, takes a lone surrogate (as U+FFFD) instead of throwing.
  if (typeof params !== "object" || params === null || Array.isArray(params)) return new URLSearchParams({ q: textOf(params) }).toString();
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) query.append(name, textOf(value));
  return query.toString();
}

async function answerOf(response: Response): Promise<{ status: number; body: unknown }> {
  const text = await response.text();
  return { status: response.status, body: parsedOrText(text) };
}

/** Node refuses a request head over this size (431) before any of Herald runs. */
const NODE_MAX_HEADER_SIZE = 16 * 1024;

async function overHttp({ action, paramsText }: HostileCall): Promise<{ status: number; body: unknown; url: string }> {
  const route = ROUTES[action]!;
  const params = parsedOrText(paramsText);
  let url = `${serverUrl()}/api${route.path(params)}`;
  if (route.method === "GET") {
    url = `${url}?${queryOf(params)}`;
    return { ...(await answerOf(await fetch(url))), url };
  }
  return { ...(await answerOf(await fetch(url, { method: route.method, headers: { "content-type": "application/json" }, body: paramsText }))), url };
}

test("HTTP: hostile params get a success or a typed client error, never a 500", async () => {
  await fc.assert(
    fc.asyncProperty(hostileCall, async (call) => {
      const { status, body, url } = await overHttp(call);
      if (status === 431) return void expect(url.length).toBeGreaterThan(NODE_MAX_HEADER_SIZE / 2);
      assertWellFormedAnswer(status, body);
    }),
    { numRuns: RUNS, examples: REGRESSIONS },
  );
}, HOOK_TIMEOUT);

test("HTTP: bodies that are not JSON (or not UTF-8) get 400 or 413 with the error body", async () => {
  await fc.assert(
    fc.asyncProperty(corruptText, fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain"), async (body, type) => {
      const response = await fetch(`${serverUrl()}/api/message`, { method: "PUT", headers: { "content-type": type }, body });
      const { status, body: answer } = await answerOf(response);
      assertWellFormedAnswer(status, answer);
    }),
    { numRuns: RUNS },
  );
}, HOOK_TIMEOUT);

describe("WebSocket", () => {
  let socket: WsClient;
  let messageNumber = 0;

  beforeEach(async () => {
    socket = await WsClient.open(serverUrl());
  });
  afterEach(() => socket.close());

  /** Sends one frame and resolves with the reply, or with the close code when the server closed the socket. */
  async function exchange(frame: string | Uint8Array<ArrayBuffer>): Promise<Record<string, any>> {
    const reply = Promise.race([socket.next(() => true), socket.closed.then((code) => ({ closedWith: code }))]);
    socket.ws.send(frame);
    const answer = await reply;
    if ("closedWith" in answer) socket = await WsClient.open(serverUrl());
    return answer;
  }

  function check(answer: Record<string, any>): void {
    // A frame over the hard frame limit closes the socket with 1009 (message too big): a bounded answer.
    if ("closedWith" in answer) return void expect(answer.closedWith).toBe(1009);
    if ("response" in answer) return void expect(answer.messageId).toBeDefined();
    assertErrorBody(answer);
  }

  test("hostile params get a response or a typed client error", async () => {
    await fc.assert(
      fc.asyncProperty(hostileCall, async ({ action, paramsText }) => {
        messageNumber += 1;
        check(await exchange(`{"messageType":"action","messageId":"h${messageNumber}","action":${JSON.stringify(action)},"params":${paramsText}}`));
      }),
      { numRuns: RUNS, examples: REGRESSIONS },
    );
  }, HOOK_TIMEOUT);

  test("frames that are not JSON messages get a typed client error", async () => {
    await fc.assert(
      fc.asyncProperty(corruptText, async (frame) => check(await exchange(frame))),
      { numRuns: RUNS },
    );
  }, HOOK_TIMEOUT);
});

describe("MCP (Streamable HTTP)", () => {
  let requestId = 0;

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
    return { status: response.status, message: parsedOrText(data) };
  }

  /**
   * A JSON-RPC answer: a result (a tool result, success or typed error) or a JSON-RPC error
   * object; or, for a body the web transport refuses before MCP reads it (nested too deep, too
   * many keys), the typed error body with its status, as any HTTP body gets.
   */
  function checkRpc({ status, message }: { status: number; message: any }): void {
    expect(status).toBeLessThan(500);
    if (typeof message?.error?.type === "string") return void assertErrorBody(message, status);
    if (message?.error !== undefined) {
      expect(Number.isInteger(message.error.code)).toBe(true);
      expect(typeof message.error.message).toBe("string");
      return;
    }
    const result = message?.result;
    expect(result).toBeDefined();
    if (result.isError) assertErrorBody(result.structuredContent);
  }

  test("hostile tool arguments get a tool result, a JSON-RPC error or a typed refusal of the body, never a server error", async () => {
    await fc.assert(
      fc.asyncProperty(hostileCall, async ({ action, paramsText }) => {
        requestId += 1;
        const tool = action.replace(/:/g, "-");
        checkRpc(await rpc(`{"jsonrpc":"2.0","id":${requestId},"method":"tools/call","params":{"name":"${tool}","arguments":${paramsText}}}`));
      }),
      { numRuns: RUNS, examples: REGRESSIONS },
    );
  }, HOOK_TIMEOUT);

  test("bodies that are not JSON-RPC get an error: a JSON-RPC one, or the typed error body when not even JSON", async () => {
    await fc.assert(
      fc.asyncProperty(corruptText, async (body) => {
        const { status, message } = await rpc(body);
        if (Number.isInteger(message?.error?.code)) return void expect(status).toBeLessThan(500);
        assertWellFormedAnswer(status, message);
      }),
      { numRuns: RUNS },
    );
  }, HOOK_TIMEOUT);
});
