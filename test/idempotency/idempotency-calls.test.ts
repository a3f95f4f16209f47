import { request } from "node:http";
import { join } from "node:path";
import WebSocket from "ws";
import { IDEMPOTENCY_STORE_TOKEN, type HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { deleteAppKeys } from "../reliability/support/shared-redis";
import { TEST_REDIS_URL, uniquePrefix } from "../support/redis";

/**
 * Idempotency keys over HTTP (`Idempotency-Key`) and WebSocket (`idempotencyKey`), on both stores:
 * in process without Redis, and in Redis. The first call runs; a retry with the key and the same
 * params is answered the same, marked as replayed, without running; other params are refused
 * (422), a retry while the first runs too (409); a server error is not kept.
 */
const APP = join(__dirname, "../fixtures/apps/idempotency");

const DRIVERS: [string, NodeJS.ProcessEnv][] = [
  ["memory", { REDIS_URL: "" }],
  ["redis", { REDIS_URL: TEST_REDIS_URL, NAME: uniquePrefix("idempotency").slice(0, -1) }],
];

let keyCount = 0;
/** A key no other test uses. */
const newKey = () => `key-${process.pid}-${Date.now()}-${(keyCount += 1)}`;

describe.each(DRIVERS)("idempotency keys, %s store", (driver, env) => {
  let server: HeraldServer;
  let url: string;

  beforeAll(async () => {
    server = await startTestServer({ appDir: APP, env: { ...env, LOG_LEVEL: "fatal", HTTP_CORS_ORIGINS: "https://app.example" } });
    url = `${server.url}/api`;
  }, HOOK_TIMEOUT);
  afterAll(async () => {
    await server?.stop();
    if (env.REDIS_URL) await deleteAppKeys(env.NAME!);
  }, HOOK_TIMEOUT);

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const runs = async () => ((await (await fetch(`${url}/runs`)).json()) as { runs: number; held: number }).runs;

  test("the store is the one the environment asks for", () => {
    expect(server.container.resolve(IDEMPOTENCY_STORE_TOKEN).driver).toBe(driver);
  });

  test("a retry with the key gets the first answer, marked as replayed, and runs nothing", async () => {
    const key = newKey();
    const first = await post("/orders", { item: "tea", quantity: 2 }, { "idempotency-key": key });
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const firstBody = await first.text();
    const runsAfterFirst = await runs();

    // Keys in another order are the same params.
    const retry = await fetch(`${url}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": key },
      body: '{"quantity":2,"item":"tea"}',
    });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await retry.text()).toBe(firstBody);
    expect(await runs()).toBe(runsAfterFirst);
  });

  test("the key as a structured-field string is the same key as the bare token", async () => {
    const key = newKey();
    const first = await post("/orders", { item: "jam" }, { "idempotency-key": `"${key}"` });
    const retry = await post("/orders", { item: "jam" }, { "idempotency-key": key });
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await retry.json()).toEqual(await first.json());
  });

  test("without a key every call runs", async () => {
    const before = await runs();
    await post("/orders", { item: "bread" });
    await post("/orders", { item: "bread" });
    expect(await runs()).toBe(before + 2);
  });

  test("the same key with other params, or for another action, is refused with 422 and runs nothing", async () => {
    const key = newKey();
    await post("/orders", { item: "tea" }, { "idempotency-key": key });
    const before = await runs();
    const otherParams = await post("/orders", { item: "coffee" }, { "idempotency-key": key });
    expect(otherParams.status).toBe(422);
    expect((await otherParams.json()).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "idempotencyKey" });
    const otherAction = await post("/orders/refused", { item: "tea" }, { "idempotency-key": key });
    expect(otherAction.status).toBe(422);
    expect(await runs()).toBe(before);
  });

  test("a retry while the first call still runs is refused with 409; once it answered, the retry is replayed", async () => {
    const key = newKey();
    const first = post("/orders", { item: "cake", hold: true }, { "idempotency-key": key });
    await waitFor(async () => ((await (await fetch(`${url}/runs`)).json()) as { held: number }).held === 1);
    const during = await post("/orders", { item: "cake", hold: true }, { "idempotency-key": key });
    expect(during.status).toBe(409);
    expect((await during.json()).error).toMatchObject({ type: "CONNECTION_CONFLICT", key: "idempotencyKey" });

    await post("/gate", {});
    const firstAnswer = await first;
    expect(firstAnswer.status).toBe(200);
    const after = await post("/orders", { item: "cake", hold: true }, { "idempotency-key": key });
    expect(after.headers.get("idempotent-replayed")).toBe("true");
    expect(await after.json()).toEqual(await firstAnswer.json());
  });

  test("a client error is kept and replayed with its status and body", async () => {
    const key = newKey();
    const first = await post("/orders/refused", { item: "tea" }, { "idempotency-key": key });
    expect(first.status).toBe(409);
    const body = await first.text();
    const retry = await post("/orders/refused", { item: "tea" }, { "idempotency-key": key });
    expect(retry.status).toBe(409);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await retry.text()).toBe(body);
  });

  test("a server error is not kept: the retry runs again", async () => {
    const key = newKey();
    const label = newKey();
    const first = await post("/orders/flaky", { label }, { "idempotency-key": key });
    expect(first.status).toBe(500);
    const retry = await post("/orders/flaky", { label }, { "idempotency-key": key });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await retry.json()).toEqual({ attempt: 2 });
  });

  test("a call refused for its rate is not kept: the retry runs", async () => {
    const key = newKey();
    const label = newKey();
    expect((await post("/orders/limited", { label }, { "idempotency-key": key })).status).toBe(429);
    const retry = await post("/orders/limited", { label }, { "idempotency-key": key });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ attempt: 2 });
  });

  test("a call whose caller left is not kept: the retry runs", async () => {
    const key = newKey();
    // A connection of its own, closed while the call runs: the server sees its caller leave.
    const first = request(`${url}/orders`, { method: "POST", agent: false, headers: { "content-type": "application/json", "idempotency-key": key } });
    const closed = new Promise((resolve) => first.once("error", resolve).once("close", resolve));
    first.end(JSON.stringify({ item: "soup", hold: true }));
    await waitFor(async () => ((await (await fetch(`${url}/runs`)).json()) as { held: number }).held === 1);
    first.destroy();
    await closed;
    await post("/gate", {});
    // Once the abandoned call has ended (409 until then), its key is free: a kept 499 would answer
    // these other params 422, and the same params with a replayed 499.
    let retry: Response | undefined;
    await waitFor(async () => (retry = await post("/orders", { item: "soup", hold: false }, { "idempotency-key": key })).status !== 409);
    expect(retry!.status).toBe(200);
    expect(retry!.headers.get("idempotent-replayed")).toBeNull();
  });

  test("a key that is not 1 to 255 visible ASCII characters is refused with 400", async () => {
    const before = await runs();
    for (const key of ["x".repeat(256), "two words"]) {
      const answer = await post("/orders", { item: "tea" }, { "idempotency-key": key });
      expect(answer.status).toBe(400);
      expect((await answer.json()).error).toMatchObject({ key: "idempotencyKey" });
    }
    expect(await runs()).toBe(before);
  });

  test("keys belong to their caller: the same key in another session runs its own call", async () => {
    const key = newKey();
    const sessionCookie = async () => (await post("/visitors", {})).headers.get("set-cookie")!.split(";")[0]!;
    const [alice, bob] = [await sessionCookie(), await sessionCookie()];
    const before = await runs();
    const fromAlice = await post("/orders", { item: "tea" }, { "idempotency-key": key, cookie: alice });
    const fromBob = await post("/orders", { item: "tea" }, { "idempotency-key": key, cookie: bob });
    expect(fromBob.headers.get("idempotent-replayed")).toBeNull();
    expect(await runs()).toBe(before + 2);
    const aliceAgain = await post("/orders", { item: "tea" }, { "idempotency-key": key, cookie: alice });
    expect(aliceAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(await aliceAgain.json()).toEqual(await fromAlice.json());
    // Without a cookie the caller is the address, a third caller.
    const anonymous = await post("/orders", { item: "tea" }, { "idempotency-key": key });
    expect(anonymous.headers.get("idempotent-replayed")).toBeNull();
    expect(await runs()).toBe(before + 3);
    void fromBob.body?.cancel();
  });

  test("over WebSocket a retry with idempotencyKey gets the first answer with replayed: true", async () => {
    const key = newKey();
    const socket = await openSocket(server.url!);
    try {
      const first = await socket.call({ action: "order:place", params: { item: "figs", quantity: 3 }, idempotencyKey: key });
      expect(first.replayed).toBeUndefined();
      const before = await runs();
      const retry = await socket.call({ action: "order:place", params: { quantity: 3, item: "figs" }, idempotencyKey: key });
      expect(retry).toEqual({ messageId: retry.messageId, replayed: true, response: first.response });
      expect(await runs()).toBe(before);
      const mismatch = await socket.call({ action: "order:place", params: { item: "dates" }, idempotencyKey: key });
      expect(mismatch.error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "idempotencyKey" });
      const notText = await socket.call({ action: "order:place", params: { item: "figs" }, idempotencyKey: 7 });
      expect(notText.error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_FORMATTING", key: "idempotencyKey" });
    } finally {
      socket.close();
    }
  });

  test("TaskService.enqueue with an idempotency key queues one job per key", async () => {
    const key = newKey();
    const first = await post("/shipments", { item: "tea", key });
    expect(first.status).toBe(200);
    const { jobId } = (await first.json()) as { jobId: string };
    const again = await post("/shipments", { item: "tea", key });
    expect(await again.json()).toEqual({ jobId });
    const other = await post("/shipments", { item: "coffee", key });
    expect(other.status).toBe(422);
    expect((await other.json()).error).toMatchObject({ key: "idempotencyKey" });
  });

  test("a browser may send the key across origins: the preflight allows it", async () => {
    const answer = await fetch(`${url}/orders`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, idempotency-key" },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-headers")).toBe("content-type, idempotency-key");
  });

  test("a browser may read that an answer was replayed", async () => {
    const answer = await post("/orders", { item: "tea" }, { origin: "https://app.example" });
    expect(answer.headers.get("access-control-expose-headers")).toContain("Idempotent-Replayed");
  });
});

interface SocketReply {
  messageId: number;
  response?: unknown;
  error?: Record<string, unknown>;
  replayed?: boolean;
}

/** A raw `ws` client that sends action messages and resolves with each one's reply. */
async function openSocket(serverUrl: string): Promise<{ call(message: Record<string, unknown>): Promise<SocketReply>; close(): void }> {
  const socket = new WebSocket(`${serverUrl.replace(/^http/, "ws")}/ws`);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let nextId = 0;
  const waiting = new Map<number, (reply: SocketReply) => void>();
  socket.on("message", (data) => {
    const reply = JSON.parse(String(data)) as SocketReply;
    waiting.get(reply.messageId)?.(reply);
    waiting.delete(reply.messageId);
  });
  return {
    call: (message) =>
      new Promise((resolve) => {
        nextId += 1;
        waiting.set(nextId, resolve);
        socket.send(JSON.stringify({ messageType: "action", messageId: nextId, ...message }));
      }),
    close: () => socket.close(),
  };
}
