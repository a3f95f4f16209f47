import { randomUUID } from "node:crypto";
import { ChannelPresence, ChannelPublisher, ErrorType } from "herald";
import { waitFor } from "herald/testing";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { RedisPresenceStore } from "../../src/channels/redis-presence-store";
import { RedisPubSub } from "../../src/channels/redis-pubsub";
import { ChannelBroker } from "../../src/channels/channel-broker";
import { decodeChannelEvent } from "../../src/channels/channel-event";

const { prefix, redis } = useTestRedis("channel-services");
const drivers: RedisPubSub[] = [];
const presences: ChannelPresence[] = [];
afterEach(async () => {
  await Promise.all(presences.splice(0).map((presence) => presence.stop()));
  await Promise.all(drivers.splice(0).map((driver) => driver.close()));
});
/** What one Herald process holds: a driver, a broker, a publisher and presence, on a shared prefix. */
async function heraldProcess(shared: string, presenceTtlMs = 30_000) {
  const driver = new RedisPubSub({ url: TEST_REDIS_URL, prefix: shared });
  drivers.push(driver);
  await driver.connect();
  const store = new RedisPresenceStore({ client: driver.client, prefix: shared, ttlMs: presenceTtlMs });
  const presence = new ChannelPresence(store, driver, { intervalMs: Math.floor(presenceTtlMs / 3) });
  presences.push(presence);
  return { driver, broker: new ChannelBroker(driver), publisher: new ChannelPublisher(driver), presence };
}

const sharedPrefix = () => `${prefix}${randomUUID().slice(0, 8)}:`;

test("the broker subscribes the driver once per channel, however many local listeners it has", async () => {
  const { broker, publisher } = await heraldProcess(sharedPrefix());
  const first: string[] = [];
  const second: string[] = [];
  const removeFirst = await broker.subscribe("shared", (text) => first.push(text));
  const removeSecond = await broker.subscribe("shared", (text) => second.push(text));
  const numsub = async () => (await redis.pubsub("NUMSUB", `${drivers[0]!.prefix}shared`))[1];
  expect(await numsub()).toBe(1);

  await publisher.publish("shared", { n: 1 });
  await waitFor(() => first.length === 1 && second.length === 1);
  expect(decodeChannelEvent(first[0]!)).toEqual({ messageType: "message", channel: "shared", message: { n: 1 } });

  await removeFirst();
  expect(await numsub()).toBe(1);
  await removeSecond();
  expect(await numsub()).toBe(0);
  expect(broker.listenerCount("shared")).toBe(0);
});

test("a listener that throws does not keep the others from their events", async () => {
  const { broker, publisher } = await heraldProcess(sharedPrefix());
  const heard: string[] = [];
  await broker.subscribe("fragile", () => {
    throw new Error("listener bug");
  });
  await broker.subscribe("fragile", (text) => heard.push(text));
  await publisher.publish("fragile", "still delivered");
  await waitFor(() => heard.length === 1);
});

test("the publisher refuses names failing CHANNEL_NAME_PATTERN and messages JSON cannot carry", async () => {
  const { publisher } = await heraldProcess(sharedPrefix());
  await expect(publisher.publish("bad name", 1)).rejects.toMatchObject({ type: ErrorType.CONNECTION_CHANNEL_VALIDATION });
  await expect(publisher.publish("fine", { big: 1n })).rejects.toMatchObject({ type: ErrorType.CONNECTION_SERVER_ERROR });
});

test("presence announced in one process is heard in another", async () => {
  const shared = sharedPrefix();
  const here = await heraldProcess(shared);
  const there = await heraldProcess(shared);
  const heard: string[] = [];
  await there.broker.subscribe("room", (text) => heard.push(text));
  await here.presence.join({ channel: "room", presenceKey: "ada", memberId: "c1" });
  await here.presence.join({ channel: "room", presenceKey: "ada", memberId: "c2" });
  await here.presence.leave({ channel: "room", presenceKey: "ada", memberId: "c1" });
  await here.presence.leave({ channel: "room", presenceKey: "ada", memberId: "c2" });
  await waitFor(() => heard.length === 2);
  expect(heard.map((text) => decodeChannelEvent(text))).toEqual([
    { messageType: "presence", channel: "room", event: "join", presenceKey: "ada" },
    { messageType: "presence", channel: "room", event: "leave", presenceKey: "ada" },
  ]);
});

test("the members of a process that died leave: a live process sweeps them and announces it", async () => {
  const shared = sharedPrefix();
  const survivor = await heraldProcess(shared, 300);
  const dying = await heraldProcess(shared, 300);
  const heard: string[] = [];
  await survivor.broker.subscribe("room", (text) => heard.push(text));
  await survivor.presence.join({ channel: "room", presenceKey: "grace", memberId: "live" });
  // The dying process joins and never refreshes: as if it had been killed right after.
  await dying.presence.join({ channel: "room", presenceKey: "ada", memberId: "dead" });
  survivor.presence.start();

  await waitFor(() => heard.some((text) => decodeChannelEvent(text)?.messageType === "presence" && text.includes('"leave"')), { timeout: 5000 });
  const events = heard.map((text) => decodeChannelEvent(text) as { event: string; presenceKey: string });
  expect(events.map((event) => `${event.event} ${event.presenceKey}`)).toEqual(["join grace", "join ada", "leave ada"]);
  // The survivor's own member, refreshed all along, is still present.
  expect(await survivor.presence.members("room")).toEqual(["grace"]);
});

test("stopping presence makes this process's members leave", async () => {
  const shared = sharedPrefix();
  const { presence } = await heraldProcess(shared);
  const observer = await heraldProcess(shared);
  await presence.join({ channel: "room", presenceKey: "ada", memberId: "c1" });
  expect(await observer.presence.members("room")).toEqual(["ada"]);
  await presence.stop();
  expect(await observer.presence.members("room")).toEqual([]);
});
