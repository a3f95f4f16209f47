import { join } from "node:path";
import { ErrorType, IDEMPOTENCY_STORE_TOKEN, type IdempotencyStore } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { MemoryIdempotencyStore } from "../../src/idempotency/memory-idempotency-store";
import { RedisIdempotencyStore } from "../../src/idempotency/redis-idempotency-store";
import { freePort } from "../support/free-port";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";

const TTL = 60_000;
const { prefix, redis } = useTestRedis("idempotency-store");

let count = 0;
const newKey = () => `k${(count += 1)}`;

/** The behaviour every IdempotencyStore driver promises: a claim wins once, and only its holder settles or releases it. */
describe.each<[string, () => IdempotencyStore]>([
  ["memory", () => new MemoryIdempotencyStore(TTL)],
  ["redis", () => new RedisIdempotencyStore({ url: TEST_REDIS_URL, prefix, ttlMs: TTL })],
])("IdempotencyStore contract: %s", (driver, create) => {
  let store: IdempotencyStore;
  beforeEach(() => {
    store = create();
  });
  afterEach(() => store.close());

  test("names its driver and its TTL", () => {
    expect(store.driver).toBe(driver);
    expect(store.ttlMs).toBe(TTL);
  });

  test("the first claim wins; later claims get what the key holds", async () => {
    const key = newKey();
    await expect(store.claim(key, "first", TTL)).resolves.toBeUndefined();
    await expect(store.claim(key, "second", TTL)).resolves.toBe("first");
  });

  test("of two claims at once, exactly one wins", async () => {
    const key = newKey();
    const claims = await Promise.all(["a", "b", "c", "d"].map((value) => store.claim(key, value, TTL)));
    expect(claims.filter((held) => held === undefined)).toHaveLength(1);
  });

  test("reads what a key holds, and nothing for a key never claimed", async () => {
    const key = newKey();
    await expect(store.read(key)).resolves.toBeUndefined();
    await store.claim(key, "mine", TTL);
    await expect(store.read(key)).resolves.toBe("mine");
  });

  test("only the holder of the claim settles it", async () => {
    const key = newKey();
    await store.claim(key, "mine", TTL);
    await store.settle(key, "not mine", "stolen", TTL);
    await expect(store.claim(key, "x", TTL)).resolves.toBe("mine");
    await store.settle(key, "mine", "answer", TTL);
    await expect(store.claim(key, "x", TTL)).resolves.toBe("answer");
  });

  test("only the holder of the claim releases it; then the key is free", async () => {
    const key = newKey();
    await store.claim(key, "mine", TTL);
    await store.release(key, "not mine");
    await expect(store.claim(key, "x", TTL)).resolves.toBe("mine");
    await store.release(key, "mine");
    await expect(store.claim(key, "again", TTL)).resolves.toBeUndefined();
  });

  test("a claim nobody settles expires after its hold, and the key can be claimed again", async () => {
    const key = newKey();
    await store.claim(key, "abandoned", 100);
    await waitFor(async () => (await store.claim(key, "retry", TTL)) === undefined);
    await expect(store.claim(key, "later", TTL)).resolves.toBe("retry");
  });

  test("a settled answer expires after its keep time", async () => {
    const key = newKey();
    await store.claim(key, "mine", TTL);
    await store.settle(key, "mine", "answer", 100);
    await waitFor(async () => (await store.claim(key, "new", TTL)) === undefined);
  });
});

describe("RedisIdempotencyStore", () => {
  test("keeps its records under its prefix, with the keep time as their TTL", async () => {
    const store = new RedisIdempotencyStore({ url: TEST_REDIS_URL, prefix, ttlMs: TTL });
    try {
      await store.claim("kept", "mine", 5_000);
      await store.settle("kept", "mine", "answer", TTL);
      await expect(redis.get(`${prefix}kept`)).resolves.toBe("answer");
      const ttl = await redis.pttl(`${prefix}kept`);
      expect(ttl).toBeGreaterThan(5_000);
      expect(ttl).toBeLessThanOrEqual(TTL);
    } finally {
      await store.close();
    }
  });

  test("without Redis a claim rejects with 503, and a call with a key is refused without running", async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const store = new RedisIdempotencyStore({ url: nowhere, ttlMs: TTL });
    await expect(store.claim("k", "v", TTL)).rejects.toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });

    const server = await startTestServer({
      appDir: join(__dirname, "../fixtures/apps/idempotency"),
      env: { REDIS_URL: "", LOG_LEVEL: "fatal" },
      providers: [{ token: IDEMPOTENCY_STORE_TOKEN, useValue: store }],
    });
    try {
      const runs = async () => ((await (await fetch(`${server.url}/api/runs`)).json()) as { runs: number }).runs;
      const before = await runs();
      const post = (headers: Record<string, string>) =>
        fetch(`${server.url}/api/orders`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: '{"item":"tea"}' });
      const refused = await post({ "idempotency-key": "k" });
      expect(refused.status).toBe(503);
      expect((await refused.json()).error.type).toBe(ErrorType.CONNECTION_SERVICE_UNAVAILABLE);
      expect(await runs()).toBe(before);
      // A call without a key does not need the store.
      expect((await post({})).status).toBe(200);
    } finally {
      await server.stop();
      await store.close();
    }
  }, HOOK_TIMEOUT);
});
