import { context, trace } from "@opentelemetry/api";
import { ChannelBroker } from "../../src/channels/channel-broker";
import { ChannelPublisher } from "../../src/channels/channel-publisher";
import { InProcessPubSub } from "../../src/channels/in-process-pubsub";
import { waitFor } from "herald/testing";
import { parentOf, SpanKind, spansWhere, useInMemoryTracing } from "./support/in-memory-tracing";

/** A channel message published from a traced call carries its context to the delivery, never to a subscriber. */
const exporter = useInMemoryTracing();

test("subscribers get the event as published, and its delivery's span links to the publishing call", async () => {
  const driver = new InProcessPubSub();
  await driver.connect();
  const broker = new ChannelBroker(driver);
  const publisher = new ChannelPublisher(driver, {});
  const received: string[] = [];
  await broker.subscribe("room:1", (text) => received.push(text));

  const call = trace.getTracer("test").startSpan("publishing call");
  await context.with(trace.setSpan(context.active(), call), () => publisher.publish("room:1", { text: "hello" }));
  call.end();

  await waitFor(() => received.length === 1);
  expect(JSON.parse(received[0]!)).toEqual({ messageType: "message", channel: "room:1", message: { text: "hello" } });
  // The publish is a PRODUCER span of the call; the delivery a CONSUMER span linked to it.
  const [published] = spansWhere(exporter, (span) => span.name === "publish room:1");
  expect(published!.kind).toBe(SpanKind.PRODUCER);
  expect(parentOf(published!)).toBe(call.spanContext().spanId);
  expect(published!.attributes).toMatchObject({
    "messaging.system": "herald",
    "messaging.destination.name": "room:1",
    "messaging.operation.type": "send",
    "messaging.operation.name": "publish",
  });
  const [delivery] = spansWhere(exporter, (span) => span.name === "process room:1");
  expect(delivery!.kind).toBe(SpanKind.CONSUMER);
  expect(delivery!.links.map((link) => link.context.spanId)).toEqual([published!.spanContext().spanId]);
  expect(delivery!.attributes).toMatchObject({ "messaging.destination.name": "room:1", "messaging.operation.type": "process" });
});

test("a message published outside any call starts a trace of its own, and subscribers get the event unchanged", async () => {
  const driver = new InProcessPubSub();
  await driver.connect();
  const broker = new ChannelBroker(driver);
  const received: string[] = [];
  await broker.subscribe("room:2", (text) => received.push(text));
  await new ChannelPublisher(driver, {}).publish("room:2", { text: "plain" });
  await waitFor(() => received.length === 1);
  expect(JSON.parse(received[0]!)).toEqual({ messageType: "message", channel: "room:2", message: { text: "plain" } });
  const [published] = spansWhere(exporter, (span) => span.name === "publish room:2");
  expect(parentOf(published!)).toBeUndefined();
});

test("a publish the driver refuses ends its span as an error", async () => {
  const driver = new InProcessPubSub();
  const refusing = Object.assign(Object.create(driver) as InProcessPubSub, {
    publish: async () => {
      throw new Error("Redis went away");
    },
  });
  await expect(new ChannelPublisher(refusing, {}).publish("room:3", { text: "lost" })).rejects.toThrow("Redis went away");
  const [published] = spansWhere(exporter, (span) => span.name === "publish room:3");
  expect(published!.status).toMatchObject({ code: 2, message: "Redis went away" });
  expect(published!.attributes).toMatchObject({ "error.type": "Error" });
});
