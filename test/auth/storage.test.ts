import { MemoryOAuthStorage } from "../../src/auth/memory-storage";
import { RedisOAuthStorage } from "../../src/auth/redis-storage";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { describeOAuthStorageContract } from "./storage-contract";

const { prefix, redis } = useTestRedis("oauth-storage");

describeOAuthStorageContract("in process", async () => new MemoryOAuthStorage());
describeOAuthStorageContract("Redis", async () => {
  const storage = new RedisOAuthStorage(TEST_REDIS_URL, prefix);
  await storage.connect();
  return storage;
});

describe("in process", () => {
  test("a record is gone once its expiry passes on the storage's clock", async () => {
    let now = 1_000_000;
    const storage = new MemoryOAuthStorage({ now: () => now });
    await storage.adapter("AccessToken").upsert("t", { jti: "t" }, 60);
    now += 59_999;
    await expect(storage.adapter("AccessToken").find("t")).resolves.toEqual({ jti: "t" });
    now += 1;
    await expect(storage.adapter("AccessToken").find("t")).resolves.toBeUndefined();
  });
});

describe("Redis", () => {
  test("a record's key expires with it, and a grant's index lives as long as its longest record", async () => {
    const storage = new RedisOAuthStorage(TEST_REDIS_URL, prefix);
    await storage.connect();
    try {
      await storage.adapter("AccessToken").upsert("long", { jti: "long", grantId: "gx" }, 600);
      await storage.adapter("AccessToken").upsert("short", { jti: "short", grantId: "gx" }, 60);
      await storage.adapter("Client").upsert("c", { client_id: "c" });
      const short = await redis.ttl(`${prefix}AccessToken:short`);
      expect(short).toBeGreaterThan(0);
      expect(await redis.ttl(`${prefix}grant:gx`)).toBeGreaterThan(short);
      expect(await redis.ttl(`${prefix}Client:c`)).toBeGreaterThan(0);
    } finally {
      await storage.close();
    }
  });
});
