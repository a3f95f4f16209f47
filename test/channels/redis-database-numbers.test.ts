import { randomUUID } from "node:crypto";
import { loadConfig } from "herald";
import { waitFor } from "herald/testing";
import { readChannelSettings } from "../../src/channels/channel-settings";
import { RedisPubSub } from "../../src/channels/redis-pubsub";
import { recorder } from "./pubsub-contract";
import { TEST_REDIS_URL } from "../support/redis";

/**
 * Redis pub/sub ignores the database number: a message published on database 2 reaches the
 * subscribers of database 3. Two apps of one name on two databases of one Redis are kept apart by
 * the database number in the default prefix; an app name of this run's own keeps other runs out.
 */
const NAME = `herald-test-databases-${randomUUID().slice(0, 8)}`;
const opened: RedisPubSub[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((driver) => driver.close()));
});

/** A driver as the channels initializer makes it, from the app's settings. */
async function appDriver(database: number, env: Record<string, string> = {}): Promise<RedisPubSub> {
  const url = `${TEST_REDIS_URL}/${database}`;
  const settings = readChannelSettings(loadConfig({ REDIS_URL: url, NAME, ...env }));
  const driver = new RedisPubSub({ url, prefix: settings.prefix });
  opened.push(driver);
  await driver.connect();
  return driver;
}

test("apps of one name on databases 2 and 3 of one Redis do not receive each other's messages", async () => {
  const [onTwo, onThree, alsoOnTwo] = [await appDriver(2), await appDriver(3), await appDriver(2)];
  const [heardOnTwo, heardOnThree, heardAlsoOnTwo] = [recorder(onTwo), recorder(onThree), recorder(alsoOnTwo)];
  await Promise.all([onTwo.subscribe("chat"), onThree.subscribe("chat"), alsoOnTwo.subscribe("chat")]);
  await onThree.publish("chat", "from database 3");
  await onTwo.publish("chat", "from database 2");
  // Each process on database 2 hears database 2's message; database 3's, published first, would have come first.
  await waitFor(() => heardOnTwo.length === 1 && heardAlsoOnTwo.length === 1 && heardOnThree.length === 1);
  expect(heardOnTwo).toEqual([["chat", "from database 2"]]);
  expect(heardAlsoOnTwo).toEqual([["chat", "from database 2"]]);
  expect(heardOnThree).toEqual([["chat", "from database 3"]]);
  expect(onTwo.prefix).toBe(`${NAME}:channels:2:`);
});

test("the database is read as ioredis reads it: the path, else the db parameter, else 0", () => {
  const prefixOf = (url: string) => readChannelSettings(loadConfig({ REDIS_URL: url, NAME: "app" })).prefix;
  expect(prefixOf("redis://127.0.0.1:6379")).toBe("app:channels:0:");
  expect(prefixOf("redis://127.0.0.1:6379/5")).toBe("app:channels:5:");
  expect(prefixOf("redis://127.0.0.1:6379?db=7")).toBe("app:channels:7:");
});

test("an explicit CHANNELS_PREFIX wins: apps that set the same one share channels across databases", async () => {
  const prefix = `${NAME}:shared:`;
  const [onTwo, onThree] = [await appDriver(2, { CHANNELS_PREFIX: prefix }), await appDriver(3, { CHANNELS_PREFIX: prefix })];
  expect(onTwo.prefix).toBe(prefix);
  const heardOnThree = recorder(onThree);
  await onThree.subscribe("chat");
  await onTwo.publish("chat", "across");
  await waitFor(() => heardOnThree.length === 1);
  expect(heardOnThree).toEqual([["chat", "across"]]);
});
