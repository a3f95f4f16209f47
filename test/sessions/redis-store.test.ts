import { ErrorType, type SessionStore } from "herald";
import { waitFor } from "herald/testing";
import { TEST_REDIS_URL, uniquePrefix, useTestRedis } from "../support/redis";
import { TcpProxy } from "../support/tcp-proxy";
import { describeSessionStoreContract } from "./store-contract";
import { RedisSessionStore } from "../../src/sessions/redis-store";
import { generateSessionId } from "../../src/sessions/session";

const { prefix, redis } = useTestRedis("redis-store");

async function connectedStore(options: { url?: string; commandTimeoutMs?: number } = {}): Promise<RedisSessionStore> {
  const store = new RedisSessionStore({ url: options.url ?? TEST_REDIS_URL, prefix, ...options });
  await store.connect();
  return store;
}

describeSessionStoreContract("redis", connectedStore);

describe("RedisSessionStore on a live Redis", () => {
  let store: RedisSessionStore;

  beforeEach(async () => {
    store = await connectedStore();
  });

  afterEach(async () => {
    await store.close();
  });

  test("keeps a session as JSON under the prefix, with a TTL in milliseconds", async () => {
    const id = generateSessionId();
    await store.set(id, { userId: 7 }, 60_000);
    await expect(redis.get(`${prefix}${id}`)).resolves.toBe('{"userId":7}');
    const ttl = await redis.pttl(`${prefix}${id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  test("a refreshing read sets the key's TTL again", async () => {
    const id = generateSessionId();
    await store.set(id, { a: 1 }, 1_000);
    await store.get(id, 3_600_000);
    expect(await redis.pttl(`${prefix}${id}`)).toBeGreaterThan(1_000);
  });

  test("a key that does not hold a JSON object reads as no session", async () => {
    const id = generateSessionId();
    await redis.set(`${prefix}${id}`, "not json", "PX", 60_000);
    await expect(store.get(id)).resolves.toBeUndefined();
  });

  test("two stores on one Redis and prefix see the same sessions, as two processes do", async () => {
    const other = await connectedStore();
    const id = generateSessionId();
    await store.set(id, { cart: ["tea"] }, 60_000);
    await expect(other.get(id)).resolves.toEqual({ cart: ["tea"] });
    await other.delete(id);
    await expect(store.get(id)).resolves.toBeUndefined();
    await other.close();
  });

  test("another prefix is another namespace", async () => {
    const elsewhere = new RedisSessionStore({ url: TEST_REDIS_URL, prefix: uniquePrefix("redis-store-other") });
    await elsewhere.connect();
    const id = generateSessionId();
    await store.set(id, { a: 1 }, 60_000);
    await expect(elsewhere.get(id)).resolves.toBeUndefined();
    await elsewhere.close();
  });

  test("an owner's index is a set beside the sessions that drops the ids of ended sessions", async () => {
    const [ended, live] = [generateSessionId(), generateSessionId()];
    await store.set(ended, { a: 1 }, 100);
    await store.addOwned("index-owner", ended);
    await expect(redis.smembers(`${prefix}owner:index-owner`)).resolves.toEqual([ended]);
    await waitFor(async () => (await store.get(ended)) === undefined);
    await store.set(live, { a: 1 }, 60_000);
    await store.addOwned("index-owner", live);
    await expect(redis.smembers(`${prefix}owner:index-owner`)).resolves.toEqual([live]);
    await store.deleteOwned("index-owner");
    await expect(redis.exists(`${prefix}owner:index-owner`)).resolves.toBe(0);
  });

  test("an owner's index expires no sooner than its longest session, and moves with a refresh", async () => {
    const index = `${prefix}owner:ttl-owner`;
    const [short, long] = [generateSessionId(), generateSessionId()];
    await store.set(long, { a: 1 }, 60_000);
    await store.addOwned("ttl-owner", long);
    const afterLong = await redis.pttl(index);
    expect(afterLong).toBeGreaterThan(0);
    expect(afterLong).toBeLessThanOrEqual(60_000);
    // A shorter session owned later does not shorten it.
    await store.set(short, { a: 1 }, 1_000);
    await store.addOwned("ttl-owner", short);
    expect(await redis.pttl(index)).toBeGreaterThan(1_000);
    await store.get(short, 3_600_000);
    expect(await redis.pttl(index)).toBeGreaterThan(60_000);
    await store.set(long, { a: 2 }, 7_200_000);
    expect(await redis.pttl(index)).toBeGreaterThan(3_600_000);
  });

  test("an owner's index and its sessions' back-pointers end with the sessions", async () => {
    const index = `${prefix}owner:ending-owner`;
    const [ending, deleted] = [generateSessionId(), generateSessionId()];
    await store.set(ending, { a: 1 }, 150);
    await store.set(deleted, { a: 1 }, 150);
    await store.addOwned("ending-owner", ending);
    await store.addOwned("ending-owner", deleted);
    await expect(redis.exists(`${prefix}owner-of:${ending}`, `${prefix}owner-of:${deleted}`)).resolves.toBe(2);
    await store.delete(deleted);
    await expect(redis.exists(`${prefix}owner-of:${deleted}`)).resolves.toBe(0);
    await waitFor(async () => (await redis.exists(index, `${prefix}owner-of:${ending}`)) === 0);
  });

  test("deleteOwned leaves the kept session alone in the index, expiring with it", async () => {
    const index = `${prefix}owner:keeping-owner`;
    const [kept, ended] = [generateSessionId(), generateSessionId()];
    await store.set(kept, { a: 1 }, 60_000);
    await store.set(ended, { a: 1 }, 60_000);
    await store.addOwned("keeping-owner", kept);
    await store.addOwned("keeping-owner", ended);
    await store.deleteOwned("keeping-owner", kept);
    await expect(redis.smembers(index)).resolves.toEqual([kept]);
    expect(await redis.pttl(index)).toBeGreaterThan(0);
    await expect(redis.exists(`${prefix}owner-of:${ended}`)).resolves.toBe(0);
  });

  test("answers a health ping", async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });

  test("close() ends the connection, and a closed store rejects instead of reconnecting", async () => {
    await store.close();
    expect(store.client.status).toBe("end");
    await expect(store.get(generateSessionId())).rejects.toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
    await expect(store.connect()).rejects.toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
  });
});

describe("RedisSessionStore when Redis is down", () => {
  const unavailable = { type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE };

  // A short Jest timeout: a driver that waited for Redis instead of failing would hang past it.
  const PROMPTLY = 3_000;

  test(
    "with nothing listening, connect() and every operation reject with CONNECTION_SERVICE_UNAVAILABLE",
    async () => {
      const store = new RedisSessionStore({ url: "redis://127.0.0.1:1", prefix });
      await expect(store.connect()).rejects.toMatchObject(unavailable);
      const operations: Promise<unknown>[] = [
        store.get(generateSessionId()),
        store.get(generateSessionId(), 60_000),
        store.set(generateSessionId(), { a: 1 }, 60_000),
        store.delete(generateSessionId()),
        store.ping(),
      ];
      for (const operation of operations) await expect(operation).rejects.toMatchObject(unavailable);
      await store.close();
    },
    PROMPTLY,
  );

  test(
    "before connect(), operations reject instead of queueing",
    async () => {
      const store: SessionStore = new RedisSessionStore({ url: TEST_REDIS_URL, prefix });
      await expect(store.get(generateSessionId())).rejects.toMatchObject(unavailable);
      await store.close();
    },
    PROMPTLY,
  );

  test(
    "when Redis stops answering, a command rejects after the command timeout",
    async () => {
      const proxy = await TcpProxy.start({ host: "127.0.0.1", port: 6379 });
      const store = await connectedStore({ url: `redis://127.0.0.1:${proxy.port}`, commandTimeoutMs: 200 });
      const id = generateSessionId();
      await store.set(id, { a: 1 }, 60_000);
      proxy.freeze();
      await expect(store.get(id)).rejects.toMatchObject(unavailable);
      await expect(store.get(id, 60_000)).rejects.toMatchObject(unavailable);
      await expect(store.set(id, { a: 2 }, 60_000)).rejects.toMatchObject(unavailable);
      await store.close();
      await proxy.close();
    },
    PROMPTLY,
  );

  test(
    "when the connection to Redis is lost, operations reject until it comes back",
    async () => {
      const proxy = await TcpProxy.start({ host: "127.0.0.1", port: 6379 });
      const store = await connectedStore({ url: `redis://127.0.0.1:${proxy.port}` });
      const id = generateSessionId();
      await store.set(id, { a: 1 }, 60_000);
      proxy.cut();
      await waitFor(() => store.client.status !== "ready");
      await expect(store.get(id)).rejects.toMatchObject(unavailable);
      await expect(store.set(id, { a: 2 }, 60_000)).rejects.toMatchObject(unavailable);
      await store.close();
      await proxy.close();
    },
    PROMPTLY,
  );
});
