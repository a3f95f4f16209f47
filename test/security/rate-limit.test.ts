import { join } from "node:path";
import { Connection, CONNECTION_TYPE, ErrorType } from "herald";
import { serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import { call } from "../reliability/support/http";
import { WsClient } from "../reliability/support/ws-client";

/** rateLimit() middleware with the in-process store (no REDIS_URL): one process counts alone. */
useTestServer({ appDir: join(__dirname, "fixtures/rate-limit-app"), env: { REDIS_URL: "", LOG_LEVEL: "fatal" } });

const api = (path: string) => `${serverUrl()}/api${path}`;

test("each address gets `limit` calls a window, told by X-RateLimit-* headers; the next one is 429 with Retry-After", async () => {
  for (const remaining of [2, 1, 0]) {
    const answer = await call(api("/limited/ip"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-ratelimit-limit")).toBe("3");
    expect(answer.headers.get("x-ratelimit-remaining")).toBe(String(remaining));
    expect(Number(answer.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
  }
  const refused = await call(api("/limited/ip"));
  expect(refused.status).toBe(429);
  expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
  const retryAfter = Number(refused.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(refused.body.error).toMatchObject({
    type: ErrorType.CONNECTION_RATE_LIMITED,
    key: "rateLimit",
    value: { limit: 3, windowMs: 60_000, retryAfter },
  });
});

test("one budget counts the calls of every transport: HTTP and WebSocket alike", async () => {
  expect((await call(api("/limited/mixed"))).status).toBe(200);
  expect((await call(api("/limited/mixed"))).status).toBe(200);
  const socket = await WsClient.open(serverUrl());
  try {
    expect(await socket.call("limited:mixed")).toMatchObject({ response: { ok: true } });
    const refused = await socket.call("limited:mixed");
    expect(refused.error).toMatchObject({ type: ErrorType.CONNECTION_RATE_LIMITED, value: { limit: 3 } });
  } finally {
    await socket.close();
  }
});

test("by user: each signed-in user has a budget of their own, whatever their address", async () => {
  const cookies: string[] = [];
  for (const userId of [1, 2]) {
    const signedIn = await call(api("/signin"), { method: "POST", body: { userId } });
    cookies.push(signedIn.headers.get("set-cookie")!.split(";")[0]!);
  }
  for (const cookie of cookies) {
    for (let index = 0; index < 2; index += 1) expect((await call(api("/limited/user"), { headers: { cookie } })).status).toBe(200);
  }
  for (const cookie of cookies) expect((await call(api("/limited/user"), { headers: { cookie } })).status).toBe(429);
  // An anonymous caller counts by address, apart from the users.
  expect((await call(api("/limited/user"))).status).toBe(200);
});

test("actions listing the same rateLimit() share its budget", async () => {
  expect((await call(api("/limited/shared-a"))).status).toBe(200);
  expect((await call(api("/limited/shared-b"))).status).toBe(200);
  expect((await call(api("/limited/shared-a"))).status).toBe(429);
  expect((await call(api("/limited/shared-b"))).status).toBe(429);
});

test("with counts, only the outcomes it names count: successes pass freely, failures spend the budget", async () => {
  const statuses = async (...oks: string[]) => {
    const answers = [];
    for (const ok of oks) answers.push((await call(api(`/limited/failures?budget=successes&ok=${ok}`))).status);
    return answers;
  };
  expect(await statuses("yes", "yes", "yes", "yes", "yes")).toEqual([200, 200, 200, 200, 200]);
  expect(await statuses("no", "yes", "no")).toEqual([401, 200, 401]);
  // Two failures spent the budget: the next call is refused whatever it would have been.
  expect(await statuses("yes", "no")).toEqual([429, 429]);
});

test("with resetOnSuccess, a success forgets the failures before it", async () => {
  const statuses = async (...oks: string[]) => {
    const answers = [];
    for (const ok of oks) answers.push((await call(api(`/limited/failures-reset?budget=reset&ok=${ok}`))).status);
    return answers;
  };
  expect(await statuses("no", "yes", "no", "yes", "no", "no")).toEqual([401, 200, 401, 200, 401, 401]);
  expect(await statuses("yes")).toEqual([429]);
});

test("with counts, calls in flight together are counted as they start: they cannot pass the limit together", async () => {
  const answers = await Promise.all(Array.from({ length: 4 }, () => call(api("/limited/failures?budget=in-flight&ok=no"))));
  expect(answers.map((answer) => answer.status).sort()).toEqual([401, 401, 429, 429]);
});

test("a budget is whole again once its window has passed", async () => {
  expect((await call(api("/limited/short"))).status).toBe(200);
  expect((await call(api("/limited/short"))).status).toBe(429);
  await waitFor(async () => (await call(api("/limited/short"))).status === 200, { timeout: 5000, interval: 200 });
});

test("a global rateLimit() applies to every action, built-in ones included", async () => {
  const status = await call(api("/status"));
  expect(status.status).toBe(200);
  expect(status.headers.get("x-ratelimit-limit")).toBe("10000");
});

test("calls from the command line and from queued jobs are never limited", async () => {
  for (const type of [CONNECTION_TYPE.cli, CONNECTION_TYPE.task]) {
    for (let index = 0; index < 5; index += 1) {
      const result = await testServer().runAction("limited:short", {}, new Connection({ type }));
      expect(result.status).toBe(200);
    }
  }
});
