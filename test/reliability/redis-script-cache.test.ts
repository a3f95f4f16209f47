import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Redis } from "ioredis";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { RedisPresenceStore } from "../../src/channels/redis-presence-store";
import { RedisRateLimitStore } from "../../src/middleware/redis-rate-limit-store";
import { BeeQueueDriver } from "../../src/transports/tasks/bee-queue-driver";
import { OwnRedis } from "./support/own-redis";

/**
 * SCRIPT FLUSH empties Redis's script cache, as a restart without persistence does, without
 * dropping the connections: what loaded its Lua scripts once must load them again by itself.
 * A Redis of this file alone, so the flush reaches no other test.
 */
let redis: OwnRedis;
let admin: Redis;

beforeAll(async () => {
  redis = await OwnRedis.start();
  admin = new Redis(redis.url);
}, HOOK_TIMEOUT);

afterAll(async () => {
  await admin.quit();
  await redis.destroy();
}, HOOK_TIMEOUT);

const stallCheckSha = createHash("sha1")
  .update(readFileSync(require.resolve("bee-queue/lib/lua/checkStalledJobs.lua"), "utf8"))
  .digest("hex");

async function isCached(sha: string): Promise<boolean> {
  const [exists] = (await admin.script("EXISTS", sha)) as number[];
  return exists === 1;
}

test("after SCRIPT FLUSH the task queue enqueues, runs jobs and checks for stalled ones without a NOSCRIPT error", async () => {
  const errors: string[] = [];
  const driver = new BeeQueueDriver({
    redisUrl: redis.url,
    prefix: "script-flush",
    resultTtlMs: 60_000,
    stallIntervalMs: 200,
    onError: (error) => errors.push(error.message),
  });
  const job = (n: number) => ({ payload: { action: "test:run", params: { n } }, retries: 0, backoff: { strategy: "fixed" as const, delayMs: 0 } });
  try {
    await driver.process("work", 1, async ({ payload }) => payload.params);
    const [before] = await driver.enqueue("work", [job(1)]);
    await waitFor(async () => (await driver.getJob("work", before!))?.status === "succeeded");
    await waitFor(() => isCached(stallCheckSha));

    await admin.script("FLUSH");
    const [after] = await driver.enqueue("work", [job(2)]);
    await waitFor(async () => (await driver.getJob("work", after!))?.status === "succeeded");
    // Cached again only by a stall check that ran after the flush.
    await waitFor(() => isCached(stallCheckSha));
    expect(await driver.getJob("work", after!)).toMatchObject({ status: "succeeded", result: { n: 2 } });
    expect(errors).toEqual([]);
  } finally {
    await driver.close();
  }
});

test("after SCRIPT FLUSH the rate-limit store still counts in Redis", async () => {
  const warnings: unknown[] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(args), info: () => undefined } as never;
  const store = new RedisRateLimitStore({ url: redis.url, prefix: "script-flush:", logger });
  try {
    expect((await store.hit("caller", 60_000)).count).toBe(1);
    await admin.script("FLUSH");
    expect((await store.hit("caller", 60_000)).count).toBe(2);
    expect(await admin.get("script-flush:caller")).toBe("2");
    expect(warnings).toEqual([]);
  } finally {
    await store.close();
  }
});

test("after SCRIPT FLUSH presence still joins, refreshes and lists members", async () => {
  const client = new Redis(redis.url);
  const store = new RedisPresenceStore({ client, prefix: "script-flush:presence:" });
  const entry = (memberId: string) => ({ channel: "lobby", presenceKey: memberId, memberId });
  try {
    expect(await store.join(entry("a"))).toBe(true);
    await admin.script("FLUSH");
    expect(await store.refresh([entry("a")])).toEqual([]);
    await admin.script("FLUSH");
    expect(await store.join(entry("b"))).toBe(true);
    expect((await store.members("lobby")).sort()).toEqual(["a", "b"]);
  } finally {
    await client.quit();
  }
});
