import { randomUUID } from "node:crypto";
import { ErrorType } from "herald";
import { waitFor } from "herald/testing";
import { describePresenceContract } from "./presence-contract";
import { describePubSubContract, recorder } from "./pubsub-contract";
import { RedisPresenceStore } from "../../src/channels/redis-presence-store";
import { RedisPubSub } from "../../src/channels/redis-pubsub";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";

const { prefix, redis } = useTestRedis("redis-drivers");
/** A prefix of its own for one test, beneath the file's, so the file's cleanup removes its keys too. */
const subPrefix = (name: string) => `${prefix}${name}-${randomUUID().slice(0, 8)}:`;
const opened: RedisPubSub[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((driver) => driver.close()));
});
async function connectedDriver(options: { prefix?: string; url?: string } = {}): Promise<RedisPubSub> {
  const driver = new RedisPubSub({ url: TEST_REDIS_URL, prefix, ...options });
  opened.push(driver);
  await driver.connect();
  return driver;
}

describePubSubContract("redis", () => connectedDriver());
describePresenceContract("redis", async () => {
  const driver = await connectedDriver({ prefix: subPrefix("presence-contract") });
  return new RedisPresenceStore({ client: driver.client, prefix: driver.prefix });
});

describe("RedisPubSub across processes", () => {
  test("a payload published by one driver reaches the subscribers of another on the same prefix", async () => {
    const publisher = await connectedDriver();
    const subscriber = await connectedDriver();
    const received = recorder(subscriber);
    await subscriber.subscribe("cross");
    await publisher.publish("cross", "hello");
    await waitFor(() => received.length === 1);
    expect(received).toEqual([["cross", "hello"]]);
  });

  test("drivers with different prefixes do not hear each other", async () => {
    const other = await connectedDriver({ prefix: subPrefix("other") });
    const mine = await connectedDriver();
    const heardByOther = recorder(other);
    const heardByMine = recorder(mine);
    await other.subscribe("shared-name");
    await mine.subscribe("shared-name");
    await mine.publish("shared-name", "mine");
    await waitFor(() => heardByMine.length === 1);
    await other.publish("shared-name", "other");
    await waitFor(() => heardByOther.length === 1);
    expect(heardByOther).toEqual([["shared-name", "other"]]);
    expect(heardByMine).toEqual([["shared-name", "mine"]]);
  });

  test("channels live under the prefix in Redis", async () => {
    const driver = await connectedDriver();
    await driver.subscribe("prefixed");
    expect(await redis.pubsub("NUMSUB", `${prefix}prefixed`)).toEqual([`${prefix}prefixed`, 1]);
  });

  test("the subscriber connection reconnects and subscribes again after it is cut", async () => {
    const driver = await connectedDriver({ prefix: subPrefix("reconnect") });
    const received = recorder(driver);
    await driver.subscribe("survives");
    const clients = (await redis.client("LIST")) as string;
    const line = clients.split("\n").find((entry) => entry.includes(`name=${driver.prefix}subscriber`));
    const id = /\bid=(\d+)/.exec(line ?? "")?.[1];
    expect(id).toBeDefined();
    await redis.client("KILL", "ID", id!);
    await waitFor(async () => {
      await driver.publish("survives", "after").catch(() => undefined);
      return received.length > 0;
    }, { timeout: 10_000, interval: 100 });
    expect(received[0]).toEqual(["survives", "after"]);
  });

  test("without Redis, connect and publish reject with CONNECTION_SERVICE_UNAVAILABLE", async () => {
    const driver = new RedisPubSub({ url: "redis://127.0.0.1:1", prefix, connectTimeoutMs: 500 });
    try {
      await expect(driver.connect()).rejects.toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
      await expect(driver.publish("x", "y")).rejects.toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
      await expect(driver.subscribe("x")).rejects.toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
    } finally {
      await driver.close();
    }
  });
});

describe("RedisPresenceStore across processes", () => {
  async function storePair(ttlMs: number) {
    const shared = subPrefix("presence");
    const [one, two] = [await connectedDriver({ prefix: shared }), await connectedDriver({ prefix: shared })];
    return [new RedisPresenceStore({ client: one.client, prefix: shared, ttlMs }), new RedisPresenceStore({ client: two.client, prefix: shared, ttlMs })] as const;
  }

  test("two processes see one presence: a key held in both leaves only with its last member", async () => {
    const [one, two] = await storePair(30_000);
    expect(await one.join({ channel: "room", presenceKey: "ada", memberId: "p1-c1" })).toBe(true);
    expect(await two.join({ channel: "room", presenceKey: "ada", memberId: "p2-c1" })).toBe(false);
    expect(await two.members("room")).toEqual(["ada"]);
    expect(await one.leave({ channel: "room", presenceKey: "ada", memberId: "p1-c1" })).toBe(false);
    expect(await two.leave({ channel: "room", presenceKey: "ada", memberId: "p2-c1" })).toBe(true);
    expect(await one.members("room")).toEqual([]);
  });

  test("members a process stops refreshing lapse; one sweep, by any process, reports each departure once", async () => {
    const [dying, survivor] = await storePair(300);
    await dying.join({ channel: "room", presenceKey: "ada", memberId: "dead-c1" });
    const kept = { channel: "room", presenceKey: "grace", memberId: "live-c1" };
    await survivor.join(kept);
    const departures: { channel: string; presenceKey: string }[] = [];
    await waitFor(async () => {
      await survivor.refresh([kept]);
      departures.push(...(await survivor.sweep()), ...(await dying.sweep()));
      return departures.length > 0;
    }, { timeout: 5000, interval: 50 });
    expect(departures).toEqual([{ channel: "room", presenceKey: "ada" }]);
    expect(await survivor.members("room")).toEqual(["grace"]);
  });

  test("a lapsed member is not listed even before a sweep, and a refresh brings its key back", async () => {
    const [store] = await storePair(300);
    const entry = { channel: "room", presenceKey: "ada", memberId: "c1" };
    await store.join(entry);
    await waitFor(async () => (await store.members("room")).length === 0, { timeout: 5000, interval: 50 });
    expect(await store.refresh([entry])).toEqual([]);
    expect(await store.members("room")).toEqual(["ada"]);
    expect(await store.sweep()).toEqual([]);
  });

  test("a refresh after the key was swept reports the member as back", async () => {
    const [store] = await storePair(300);
    const entry = { channel: "room", presenceKey: "ada", memberId: "c1" };
    await store.join(entry);
    const departures: unknown[] = [];
    await waitFor(async () => {
      departures.push(...(await store.sweep()));
      return departures.length > 0;
    }, { timeout: 5000, interval: 50 });
    expect(await store.refresh([entry])).toEqual([entry]);
    expect(await store.members("room")).toEqual(["ada"]);
  });
});
