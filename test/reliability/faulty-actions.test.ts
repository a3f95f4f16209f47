import { join } from "node:path";
import { ErrorType } from "herald";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { HeraldProcess } from "./support/herald-process";
import { call } from "./support/http";
import { WsClient } from "./support/ws-client";

/**
 * Actions that throw what is not an Error, reject after their timeout, never settle, or leak a
 * rejected promise, in a real `herald start` process (whose rejection guard is the one under test).
 */
const appDir = join(__dirname, "fixtures/app");
let herald: HeraldProcess;
let api: string;

beforeAll(async () => {
  // Debug level, to see the line that says a late rejection was settled (and not reported as leaked).
  herald = await HeraldProcess.start(appDir, { REDIS_URL: "", LOG_LEVEL: "debug" });
  api = `${herald.url}/api`;
}, HOOK_TIMEOUT);

afterAll(() => herald?.kill(), HOOK_TIMEOUT);

/**
 * Waits until a later call's own line is logged: a line written out of order, or twice, for
 * anything before it would be there by then, so counting after this is not a race.
 */
async function logSettled(): Promise<void> {
  const text = `settled-${Math.random()}`;
  expect((await call(`${api}/plain?text=${text}`)).status).toBe(200);
  await waitFor(() => herald.logs.some((line) => line.msg === "action" && (line.params as { text?: string })?.text === text), { timeout: 20_000 });
}

describe.each([
  ["faulty:throw-string", "string", "a bare string"],
  ["faulty:throw-object", "object", "[object Object]"],
  ["faulty:throw-null", "null", "null"],
])("%s", (action, path, message) => {
  test("over HTTP the caller gets a typed 500, logged once with what was thrown", async () => {
    const before = herald.lines("action failed", { action }).length;
    const answer = await call(`${api}/faulty/${path}`);
    expect(answer.status).toBe(500);
    expect(answer.body.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_RUN, message, timestamp: expect.any(String) });
    await logSettled();
    expect(herald.lines("action failed", { action })).toHaveLength(before + 1);
  });

  test("over WebSocket the caller gets the same typed error, logged once, and the socket stays open", async () => {
    const before = herald.lines("action failed", { action }).length;
    const socket = await WsClient.open(herald.url);
    const answer = await socket.call(action);
    expect(answer).toMatchObject({ error: { type: ErrorType.CONNECTION_ACTION_RUN, message } });
    expect(await socket.call("plain:echo", { text: "still open" })).toMatchObject({ response: { text: "still open" } });
    await socket.close();
    await logSettled();
    expect(herald.lines("action failed", { action })).toHaveLength(before + 1);
  });
});

test("faulty:late: the caller gets the timeout error; the rejection that comes later is settled quietly, not reported again", async () => {
  const answer = await call(`${api}/faulty/late`);
  expect(answer.status).toBe(504);
  expect(answer.body.error.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
  // The debug line is written when the late rejection arrives: from then on nothing else can report it.
  await herald.waitForLines("a step threw after the call's deadline", 1, { action: "faulty:late" });
  await logSettled();
  // A deadline of the server's is a server error: logged once, at error level, like every 5xx.
  expect(herald.lines("action failed", { action: "faulty:late" })).toHaveLength(1);
  expect(herald.lines("action", { action: "faulty:late" })).toHaveLength(0);
  expect(herald.lines("unhandled promise rejection (the process keeps running)").filter((line) => line.err?.message === "a late failure")).toEqual([]);
  const warnings = herald.logs.filter((line) => line.level >= 40);
  expect(warnings.filter((line) => JSON.stringify(line).includes("a late failure"))).toEqual([]);
});

test("faulty:never: the caller gets the timeout error, logged once", async () => {
  const answer = await call(`${api}/faulty/never`);
  expect(answer.status).toBe(504);
  expect(answer.body.error.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
  await logSettled();
  expect(herald.lines("action failed", { action: "faulty:never" })).toHaveLength(1);
  expect(herald.lines("action", { action: "faulty:never" })).toHaveLength(0);
});

test("a leaked rejected promise is logged once and the process keeps serving every transport", async () => {
  expect(await call(`${api}/faulty/leak`)).toMatchObject({ status: 200, body: { answered: true } });
  await herald.waitForLines("unhandled promise rejection (the process keeps running)", 1);

  const socket = await WsClient.open(herald.url);
  expect(await socket.call("faulty:leak")).toMatchObject({ response: { answered: true } });
  expect(await socket.call("plain:echo", { text: "alive" })).toMatchObject({ response: { text: "alive" } });
  await socket.close();
  await herald.waitForLines("unhandled promise rejection (the process keeps running)", 2);

  expect(herald.running).toBe(true);
  expect((await call(`${api}/status`)).status).toBe(200);
  await logSettled();
  const leaks = herald.lines("unhandled promise rejection (the process keeps running)");
  expect(leaks.map((line) => line.err.message)).toEqual(["a leaked rejection", "a leaked rejection"]);
});
