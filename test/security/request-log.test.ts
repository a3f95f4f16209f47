import { join } from "node:path";
import { serverUrl, useTestServer, waitFor } from "herald/testing";
import { call } from "../reliability/support/http";
import { WsClient } from "../reliability/support/ws-client";
import { jsonLogs, type JsonLogs, type LogLine } from "../support/json-logs";

/**
 * What the request log writes of a call's params, read from the real JSON log lines of a server
 * called over HTTP and WebSocket: the validated params only, secrets redacted, each value bounded;
 * only the keys of params that failed validation; keys only or nothing at all when LOG_PARAMS says so.
 */
const appDir = join(__dirname, "fixtures/log-app");
const PASSWORD = "hunter2-correct-horse";
const HUGE = "x".repeat(64 * 1024);
const UNDECLARED = "undeclared-value-marker";

/** A server of the enclosing describe block's own, its LOG_PARAMS set to `logParams`, and its log lines. */
function useLoggedServer(logParams?: string): JsonLogs<LogLine> {
  const logs = jsonLogs();
  const env = { REDIS_URL: "", LOG_LEVEL: "info", LOG_FORMAT: "json", WS_MAX_MESSAGE_SIZE: "256kb", ...(logParams ? { LOG_PARAMS: logParams } : {}) };
  useTestServer({ appDir, env, logDestination: logs.stream });
  return logs;
}

const valid = { text: HUGE, password: PASSWORD, tags: ["a", "b"], extra: UNDECLARED };
const invalid = { text: 42, password: PASSWORD, extra: UNDECLARED };

/** Calls note:save with `params` over HTTP and over WebSocket, and gives back both log lines. */
async function callBoth(logs: JsonLogs<LogLine>, params: Record<string, unknown>): Promise<LogLine[]> {
  const before = logs.lines.length;
  await call(`${serverUrl()}/api/note`, { method: "PUT", body: params });
  const socket = await WsClient.open(serverUrl());
  await socket.call("note:save", params);
  await socket.close();
  await waitFor(() => logs.lines.slice(before).filter((line) => line.action === "note:save").length === 2);
  const logged = logs.lines.slice(before).filter((line) => line.action === "note:save");
  expect(logged.map((line) => line.connection).sort()).toEqual(["web", "websocket"]);
  return logged;
}

describe("LOG_PARAMS=values (the default)", () => {
  const logs = useLoggedServer();

  test("a valid call logs its validated params: undeclared key dropped, secret redacted, a 64 KB value cut", async () => {
    for (const line of await callBoth(logs, valid)) {
      expect(line.status).toBe(200);
      expect(Object.keys(line.params).sort()).toEqual(["password", "tags", "text"]);
      expect(line.params.password).toBe("[[secret]]");
      expect(line.params.tags).toEqual(["a", "b"]);
      expect(line.params.text).toBe(`${"x".repeat(256)}…(+${HUGE.length - 256} chars)`);
      expect(line.paramKeys).toBeUndefined();
    }
    const written = logs.text.filter((line) => line.includes('"note:save"'));
    expect(written.some((line) => line.includes(UNDECLARED) || line.includes(PASSWORD))).toBe(false);
    // A line stays small whatever the params weigh.
    expect(Math.max(...written.map((line) => line.length))).toBeLessThan(2048);
  });

  test("a call that fails validation logs only the keys it sent, none of their values", async () => {
    for (const line of await callBoth(logs, invalid)) {
      expect(line.status).toBe(422);
      expect(line.params).toBeUndefined();
      expect(line.paramKeys).toEqual(["text", "password", "extra"]);
    }
    expect(logs.text.some((line) => line.includes(UNDECLARED) || line.includes(PASSWORD))).toBe(false);
  });
});

describe("LOG_PARAMS=keys", () => {
  const logs = useLoggedServer("keys");

  test("lines name the validated keys and carry no value", async () => {
    for (const line of await callBoth(logs, valid)) {
      expect(line.params).toBeUndefined();
      expect(line.paramKeys).toEqual(["text", "password", "tags"]);
    }
    expect(logs.text.some((line) => line.includes("xxxxxxxx") || line.includes(PASSWORD))).toBe(false);
  });
});

describe("LOG_PARAMS=none", () => {
  const logs = useLoggedServer("none");

  test("lines carry neither params nor their keys", async () => {
    for (const params of [valid, invalid]) {
      for (const line of await callBoth(logs, params)) {
        expect(line.params).toBeUndefined();
        expect(line.paramKeys).toBeUndefined();
      }
    }
  });
});
