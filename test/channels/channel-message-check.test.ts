import { z } from "zod";
import { Channel, ChannelPublisher, ErrorType, InProcessPubSub, rootContainer } from "herald";
import { waitFor } from "herald/testing";
import { ChannelRegistry } from "../../src/channels/channel-registry";
import { decodeChannelEvent } from "../../src/channels/channel-event";

/** A channel's `message` schema, held to by ChannelPublisher when it checks (CHECK_OUTPUTS). */
class ScoresChannel extends Channel {
  name = "scores";
  message = z.object({ team: z.string(), points: z.number().int() });
}

class Family extends Channel {
  name = /^room:\d+$/;
  message = z.object({ text: z.string() });
}

async function publisherOn(checkMessages: boolean) {
  const driver = new InProcessPubSub();
  await driver.connect();
  const channels = new ChannelRegistry(rootContainer.createChildContainer());
  channels.add(new ScoresChannel());
  channels.add(new Family());
  const received: unknown[] = [];
  driver.onMessage((_channel, payload) => received.push((decodeChannelEvent(payload) as { message: unknown }).message));
  await driver.subscribe("scores");
  await driver.subscribe("room:7");
  return { publisher: new ChannelPublisher(driver, { channels, checkMessages }), received };
}

test("a message the channel's schema describes is published", async () => {
  const { publisher, received } = await publisherOn(true);
  await publisher.publish("scores", { team: "red", points: 3 });
  await waitFor(() => received.length === 1);
  expect(received).toEqual([{ team: "red", points: 3 }]);
});

test("a message it does not describe is refused, naming the channel and the first wrong path, and sent to no one", async () => {
  const { publisher, received } = await publisherOn(true);
  const refused = publisher.publish("scores", { team: "red", points: 2.5 });
  await expect(refused).rejects.toMatchObject({
    type: ErrorType.CONNECTION_SERVER_ERROR,
    key: "message",
    message: expect.stringMatching(/^The message published to channel "scores" is not what its message schema describes, at points: /),
  });
  // A channel of a RegExp family is held to its family's schema.
  await expect(publisher.publish("room:7", { text: 7 })).rejects.toMatchObject({ message: expect.stringContaining('channel "room:7"') });
  await publisher.publish("scores", { team: "blue", points: 1 });
  await waitFor(() => received.length === 1);
  expect(received).toEqual([{ team: "blue", points: 1 }]);
});

test("without the check (production's default) the message goes out as it is", async () => {
  const { publisher, received } = await publisherOn(false);
  await publisher.publish("scores", { team: "red", points: "many" });
  await waitFor(() => received.length === 1);
  expect(received).toEqual([{ team: "red", points: "many" }]);
});
