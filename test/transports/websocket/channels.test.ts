import { join } from "node:path";
import { ChannelPresence, ErrorType } from "herald";
import { testServer, useTestServer, waitFor } from "herald/testing";
import { channelLog } from "../../fixtures/apps/websocket/channel-log";
import { ServerMessage, TestSocket } from "./support/test-socket";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/websocket"), env: { REDIS_URL: "", NODE_ENV: "test" } });

const sockets: TestSocket[] = [];
async function openAs(name?: string): Promise<TestSocket> {
  const socket = await TestSocket.open();
  sockets.push(socket);
  if (name) await socket.action("ws:identify", { name });
  return socket;
}
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.close()));
});

const presenceEvents = (socket: TestSocket, channel: string) =>
  socket.received
    .filter((message) => message.messageType === "presence" && message.channel === channel)
    .map((message: ServerMessage) => `${message.event} ${message.presenceKey}`);

describe("authorization", () => {
  test("an authorize that throws refuses with CONNECTION_CHANNEL_AUTHORIZATION and its message", async () => {
    const bob = await openAs("bob");
    const reply = await bob.subscribe("private:plans");
    expect(reply.error).toMatchObject({
      type: ErrorType.CONNECTION_CHANNEL_AUTHORIZATION,
      message: "Only Ada may listen here",
      key: "channel",
      value: "private:plans",
    });
    const ada = await openAs("ada");
    expect((await ada.subscribe("private:plans")).subscribed).toEqual({ channel: "private:plans" });
  });

  test("an authorize that returns false refuses", async () => {
    const socket = await openAs();
    const reply = await socket.subscribe("closed");
    expect(reply.error).toMatchObject({ type: ErrorType.CONNECTION_CHANNEL_AUTHORIZATION, value: "closed" });
  });

  test("a TypedError thrown by authorize keeps its type", async () => {
    const socket = await openAs();
    expect((await socket.subscribe("members")).error).toMatchObject({ type: ErrorType.CONNECTION_NOT_AUTHENTICATED, message: "Log in first" });
  });

  test("a refused subscription receives nothing", async () => {
    const bob = await openAs("bob");
    await bob.subscribe("private:secrets");
    await bob.subscribe("lobby");
    await bob.action("ws:publish", { channel: "private:secrets", message: "psst" });
    await bob.action("ws:publish", { channel: "lobby", message: "sentinel" });
    await bob.published("lobby", "sentinel");
    expect(bob.received.some((message) => message.channel === "private:secrets")).toBe(false);
  });
});

describe("channel middleware", () => {
  test("runBefore runs before authorize on subscribe; runAfter after unsubscribe and after a disconnect", async () => {
    channelLog.length = 0;
    const ada = await openAs("ada");
    await ada.subscribe("private:diary");
    expect(channelLog).toEqual(["before private:diary ada", "authorize private:diary"]);
    await ada.unsubscribe("private:diary");
    expect(channelLog).toEqual(["before private:diary ada", "authorize private:diary", "after private:diary ada"]);

    channelLog.length = 0;
    await ada.subscribe("private:diary");
    await ada.close();
    await waitFor(() => channelLog.includes("after private:diary ada"));
  });

  test("a refused subscription does not run runAfter", async () => {
    channelLog.length = 0;
    const bob = await openAs("bob");
    await bob.subscribe("private:diary");
    await bob.close();
    expect(channelLog).toEqual(["before private:diary bob", "authorize private:diary"]);
  });
});

describe("presence", () => {
  test("subscribers see a presence key join and, when its last connection leaves, leave", async () => {
    const ada = await openAs("ada");
    await ada.subscribe("room:presence-1");
    await ada.next((message) => message.messageType === "presence" && message.presenceKey === "ada");

    const bob = await openAs("bob");
    await bob.subscribe("room:presence-1");
    expect(await ada.next((message) => message.messageType === "presence" && message.presenceKey === "bob")).toEqual({
      messageType: "presence",
      channel: "room:presence-1",
      event: "join",
      presenceKey: "bob",
    });
    expect((await ada.action("ws:present", { channel: "room:presence-1" })).response).toEqual({ present: ["ada", "bob"] });

    await bob.unsubscribe("room:presence-1");
    await ada.next((message) => message.event === "leave" && message.presenceKey === "bob");
    expect(presenceEvents(ada, "room:presence-1")).toEqual(["join ada", "join bob", "leave bob"]);
  });

  test("several connections with one key are present once; the key leaves with the last of them", async () => {
    const watcher = await openAs("watcher");
    await watcher.subscribe("room:presence-2");
    const tabOne = await openAs("carol");
    const tabTwo = await openAs("carol");
    await tabOne.subscribe("room:presence-2");
    await tabTwo.subscribe("room:presence-2");
    await tabOne.close();
    await watcher.action("ws:publish", { channel: "room:presence-2", message: "sentinel" });
    await watcher.published("room:presence-2", "sentinel");
    expect(presenceEvents(watcher, "room:presence-2")).toEqual(["join watcher", "join carol"]);

    await tabTwo.close();
    await watcher.next((message) => message.event === "leave" && message.presenceKey === "carol");
    expect(presenceEvents(watcher, "room:presence-2")).toEqual(["join watcher", "join carol", "leave carol"]);
    await waitFor(async () => (await testServer().container.resolve(ChannelPresence).members("room:presence-2")).join() === "watcher");
  });

  test("a channel without presenceKey sends no presence events", async () => {
    const one = await openAs("one");
    const two = await openAs("two");
    await one.subscribe("lobby");
    await two.subscribe("lobby");
    await two.action("ws:publish", { channel: "lobby", message: "sentinel" });
    await one.published("lobby", "sentinel");
    expect(one.received.some((message) => message.messageType === "presence")).toBe(false);
  });
});
