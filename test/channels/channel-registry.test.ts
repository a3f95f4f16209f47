import { Channel, ChannelMiddleware, ErrorType, rootContainer } from "herald";
import { ChannelRegistry } from "../../src/channels/channel-registry";

class Lobby extends Channel {
  name = "lobby";
}

class Rooms extends Channel {
  name = /^room:\d+$/g;
}

class AnyRoom extends Channel {
  name = /^room:/;
}

class Guard implements ChannelMiddleware {
  runBefore() {}
}

const registry = () => new ChannelRegistry(rootContainer.createChildContainer());

test("a name matches the channel with exactly that name, else the first RegExp that matches", () => {
  const channels = registry();
  const lobby = channels.add(new Lobby());
  const rooms = channels.add(new Rooms());
  const anyRoom = channels.add(new AnyRoom());
  expect(channels.match("lobby")).toBe(lobby);
  expect(channels.match("room:12")).toBe(rooms);
  // A global flag would make `test` remember where it stopped; the registry ignores it.
  expect(channels.match("room:12")).toBe(rooms);
  expect(channels.match("room:abc")).toBe(anyRoom);
  expect(channels.match("lobby2")).toBeUndefined();
  expect(channels.list()).toHaveLength(3);
});

test("middleware classes are resolved through the container; instances are kept", () => {
  const instance: ChannelMiddleware = { runAfter() {} };
  class Guarded extends Channel {
    name = "guarded";
    middleware = [Guard, instance];
  }
  const entry = registry().add(new Guarded());
  expect(entry.middleware[0]).toBeInstanceOf(Guard);
  expect(entry.middleware[1]).toBe(instance);
});

test("a plain object with a name is a channel too", () => {
  const channels = registry();
  channels.add({ name: "plain", authorize: () => true });
  expect(channels.match("plain")?.definition.name).toBe("plain");
});

test.each([
  ["without a name", { description: "no name" }, /not a channel/],
  ["with an invalid name", { name: "no spaces allowed" }, /invalid name/],
])("a class %s fails the boot with SERVER_INITIALIZATION", (_case, candidate, message) => {
  expect(() => registry().add(candidate, "channels/bad.ts")).toThrow(
    expect.objectContaining({ type: ErrorType.SERVER_INITIALIZATION, message: expect.stringMatching(message) }),
  );
});

test("two channels with one name fail the boot, naming both files", () => {
  const channels = registry();
  channels.add(new Lobby(), "channels/a.ts");
  expect(() => channels.add(new Lobby(), "channels/b.ts")).toThrow(
    expect.objectContaining({ type: ErrorType.SERVER_INITIALIZATION, message: expect.stringMatching(/a\.ts.*b\.ts/) }),
  );
});
