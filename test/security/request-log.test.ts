import { join } from "node:path";
import { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { call } from "../reliability/support/http";
import { WsClient } from "../reliability/support/ws-client";
import { jsonLogs, type LogLine } from "../support/json-logs";

/**
 * What the request log writes of a call's params, read from the real JSON log lines of a server
 * called over HTTP and WebSocket: the validated params only, secrets redacted, each value bounded;
 * only the keys of params that failed validation; keys only or nothing at all when LOG_PARAMS says so.
 */
const appDir = join(__dirname, "fixtures/log-app");
const PASSWORD = "hunter2-correct-horse";
const HUGE = "x".repeat(64 * 1024);
const UNDECLARED = "undeclared-value-marker";

async function boot(logParams?: string): Promise<{ server: HeraldServer; lines: LogLine[]; text: string[] }> {
  const { stream, lines, text } = jsonLogs();
  const env = { REDIS_URL: "", LOG_LEVEL: "info", LOG_FORMAT: "json", WS_MAX_MESSAGE_SIZE: "256kb", ...(logParams ? { LOG_PARAMS: logParams } : {}) };
  const server = await startTestServer({ appDir, env, logDestination: stream });
  return { server, lines, text };
}

const valid = { text: HUGE, password: PASSWORD, tags: ["a", "b"], extra: UNDECLARED };
const invalid = { text: 42, password: PASSWORD, extra: UNDECLARED };

/** Calls note:save with `params` over HTTP and over WebSocket, and gives back both log lines. */
async function callBoth(booted: { server: HeraldServer; lines: LogLine[] }, params: Record<string, unknown>): Promise<LogLine[]> {
  const before = booted.lines.length;
  await call(`${booted.server.url}/api/note`, { method: "PUT", body: params });
  const socket = await WsClient.open(booted.server.url!);
  await socket.call("note:save", params);
  await socket.close();
  await waitFor(() => booted.lines.slice(before).filter((line) => line.action === "note:save").length === 2);
  const logged = booted.lines.slice(before).filter((line) => line.action === "note:save");
  expect(logged.map((line) => line.connection).sort()).toEqual(["web", "websocket"]);
  return logged;
}

describe("LOG_PARAMS=values (the default)", () => {
  let booted: Awaited<ReturnType<typeof boot>>;
  beforeAll(async () => {
    booted = await boot();
  }, HOOK_TIMEOUT);
  afterAll(() => booted?.server.stop(), HOOK_TIMEOUT);

  test("a valid call logs its validated params: undeclared key dropped, secret redacted, a 64 KB value cut", async () => {
    for (const line of await callBoth(booted, valid)) {
      expect(line.status).toBe(200);
      expect(Object.keys(line.params).sort()).toEqual(["password", "tags", "text"]);
      expect(line.params.password).toBe("[[secret]]");
      expect(line.params.tags).toEqual(["a", "b"]);
      expect(line.params.text).toBe(`${"x".repeat(256)}…(+${HUGE.length - 256} chars)`);
      expect(line.paramKeys).toBeUndefined();
    }
    const written = booted.text.filter((line) => line.includes('"note:save"'));
    expect(written.some((line) => line.includes(UNDECLARED) || line.includes(PASSWORD))).toBe(false);
    // A line stays small whatever the params weigh.
    expect(Math.max(...written.map((line) => line.length))).toBeLessThan(2048);
  });

  test("a call that fails validation logs only the keys it sent, none of their values", async () => {
    for (const line of await callBoth(booted, invalid)) {
      expect(line.status).toBe(422);
      expect(line.params).toBeUndefined();
      expect(line.paramKeys).toEqual(["text", "password", "extra"]);
    }
    expect(booted.text.some((line) => line.includes(UNDECLARED) || line.includes(PASSWORD))).toBe(false);
  });
});

describe("LOG_PARAMS=keys", () => {
  let booted: Awaited<ReturnType<typeof boot>>;
  beforeAll(async () => {
    booted = await boot("keys");
  }, HOOK_TIMEOUT);
  afterAll(() => booted?.server.stop(), HOOK_TIMEOUT);

  test("lines name the validated keys and carry no value", async () => {
    for (const line of await callBoth(booted, valid)) {
      expect(line.params).toBeUndefined();
      expect(line.paramKeys).toEqual(["text", "password", "tags"]);
    }
    expect(booted.text.some((line) => line.includes("xxxxxxxx") || line.includes(PASSWORD))).toBe(false);
  });
});

describe("LOG_PARAMS=none", () => {
  let booted: Awaited<ReturnType<typeof boot>>;
  beforeAll(async () => {
    booted = await boot("none");
  }, HOOK_TIMEOUT);
  afterAll(() => booted?.server.stop(), HOOK_TIMEOUT);

  test("lines carry neither params nor their keys", async () => {
    for (const params of [valid, invalid]) {
      for (const line of await callBoth(booted, params)) {
        expect(line.params).toBeUndefined();
        expect(line.paramKeys).toBeUndefined();
      }
    }
  });
});
