import { join } from "node:path";
import { ErrorType } from "herald";
import { HOOK_TIMEOUT } from "herald/testing";
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

test.each([
  ["faulty:throw-string", "string", "a bare string"],
  ["faulty:throw-object", "object", "[object Object]"],
  ["faulty:throw-null", "null", "null"],
])("%s: the caller gets a typed 500, logged once with what was thrown", async (action, path, message) => {
  const answer = await call(`${api}/faulty/${path}`);
  expect(answer.status).toBe(500);
  expect(answer.body.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_RUN, message, timestamp: expect.any(String) });
  await herald.waitForLines("action failed", 1, { action });
  expect(herald.lines("action failed", { action })).toHaveLength(1);
});

test.each([
  ["faulty:late", "late"],
  ["faulty:never", "never"],
])("%s: the caller gets the timeout error, and what settles later is not reported again", async (action, path) => {
  const answer = await call(`${api}/faulty/${path}`);
  expect(answer.status).toBe(408);
  expect(answer.body.error.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
  await herald.waitForLines("action", 1, { action });
  expect(herald.lines("action", { action })).toHaveLength(1);
});

test("a leaked rejected promise is logged once and the process keeps serving every transport", async () => {
  expect(await call(`${api}/faulty/leak`)).toMatchObject({ status: 200, body: { answered: true } });
  await herald.waitForLines("unhandled promise rejection (the process keeps running)", 1);
  await herald.waitForLines("action rejected after its timeout", 1, { action: "faulty:late" });

  const socket = await WsClient.open(herald.url);
  expect(await socket.call("faulty:leak")).toMatchObject({ response: { answered: true } });
  expect(await socket.call("plain:echo", { text: "alive" })).toMatchObject({ response: { text: "alive" } });
  await socket.close();
  await herald.waitForLines("unhandled promise rejection (the process keeps running)", 2);

  expect(herald.running).toBe(true);
  expect((await call(`${api}/status`)).status).toBe(200);
  const leaks = herald.lines("unhandled promise rejection (the process keeps running)");
  expect(leaks.map((line) => line.err.message)).toEqual(["a leaked rejection", "a leaked rejection"]);
  const warnings = herald.logs.filter((line) => line.level >= 40);
  expect(warnings.filter((line) => JSON.stringify(line).includes("a late failure"))).toEqual([]);
});
