import { MemoryOAuthStorage } from "../../src/auth/memory-storage";
import { RedisOAuthStorage } from "../../src/auth/redis-storage";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";

const { prefix, redis } = useTestRedis("oauth-client-lifetime");
const lifetime = { pending: 3600, idle: 30 * 86_400 };
const HOUR = 3_600_000;

describe("in process", () => {
  let now = 1_000_000;
  const open = (maxClients = 100) => new MemoryOAuthStorage({ clientLifetime: lifetime, maxClients, now: () => now });

  test("a client never given a token is gone after the pending lifetime, each use pushing it on", async () => {
    const storage = open();
    const clients = storage.adapter("Client");
    await clients.upsert("c", { client_id: "c" });
    now += HOUR - 1;
    await expect(clients.find("c")).resolves.toEqual({ client_id: "c" });
    now += HOUR - 1;
    await expect(clients.find("c")).resolves.toEqual({ client_id: "c" });
    now += HOUR;
    await expect(clients.find("c")).resolves.toBeUndefined();
  });

  test("a client given a token lives the idle lifetime from its last use", async () => {
    const storage = open();
    await storage.adapter("Client").upsert("c", { client_id: "c" });
    await storage.adapter("AccessToken").upsert("t", { jti: "t", clientId: "c" }, 60);
    now += 29 * 24 * HOUR;
    await expect(storage.adapter("Client").find("c")).resolves.toEqual({ client_id: "c" });
    now += 29 * 24 * HOUR;
    await expect(storage.adapter("Client").find("c")).resolves.toEqual({ client_id: "c" });
    now += 30 * 24 * HOUR;
    await expect(storage.adapter("Client").find("c")).resolves.toBeUndefined();
  });

  test("past its bound the store lets go of the least recently used client never given a token, and keeps those with tokens", async () => {
    const storage = open(3);
    const clients = storage.adapter("Client");
    await clients.upsert("granted", { client_id: "granted" });
    await storage.adapter("RefreshToken").upsert("r", { jti: "r", clientId: "granted" }, 60);
    await clients.upsert("old", { client_id: "old" });
    await clients.upsert("used", { client_id: "used" });
    await clients.find("old");
    await clients.upsert("new", { client_id: "new" });
    await expect(clients.find("used")).resolves.toBeUndefined();
    for (const kept of ["granted", "old", "new"]) await expect(clients.find(kept)).resolves.toEqual({ client_id: kept });
    for (let at = 0; at < 10; at++) await clients.upsert(`flood-${at}`, { client_id: `flood-${at}` });
    await expect(clients.find("granted")).resolves.toEqual({ client_id: "granted" });
  });
});

describe("Redis", () => {
  let storage: RedisOAuthStorage;
  beforeAll(async () => {
    storage = new RedisOAuthStorage(TEST_REDIS_URL, prefix, undefined, lifetime);
    await storage.connect();
  });
  afterAll(() => storage.close());

  test("a client's key expires after the pending lifetime, and a use pushes it on", async () => {
    await storage.adapter("Client").upsert("c1", { client_id: "c1" });
    const key = `${prefix}Client:c1`;
    expect(await redis.ttl(key)).toBeGreaterThan(0);
    expect(await redis.ttl(key)).toBeLessThanOrEqual(3600);
    await redis.expire(key, 10);
    await expect(storage.adapter("Client").find("c1")).resolves.toEqual({ client_id: "c1" });
    expect(await redis.ttl(key)).toBeGreaterThan(10);
  });

  test("a token issued to a client keeps it the idle lifetime, and a token for a client that is gone recreates nothing", async () => {
    await storage.adapter("Client").upsert("c2", { client_id: "c2" });
    await storage.adapter("AccessToken").upsert("t2", { jti: "t2", clientId: "c2" }, 60);
    expect(await redis.ttl(`${prefix}Client:c2`)).toBeGreaterThan(3600);
    await redis.expire(`${prefix}Client:c2`, 10);
    await storage.adapter("Client").find("c2");
    expect(await redis.ttl(`${prefix}Client:c2`)).toBeGreaterThan(3600);
    await storage.adapter("RefreshToken").upsert("r3", { jti: "r3", clientId: "gone" }, 60);
    expect(await redis.exists(`${prefix}Client:gone`)).toBe(0);
  });
});
