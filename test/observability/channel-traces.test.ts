import { context, trace } from "@opentelemetry/api";
import { ChannelBroker } from "../../src/channels/channel-broker";
import { ChannelPublisher } from "../../src/channels/channel-publisher";
import { InProcessPubSub } from "../../src/channels/in-process-pubsub";
import { waitFor } from "herald/testing";
import { SpanKind, spansWhere, useInMemoryTracing } from "./support/in-memory-tracing";

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
  const [delivery] = spansWhere(exporter, (span) => span.name === "process room:1");
  expect(delivery!.kind).toBe(SpanKind.CONSUMER);
  expect(delivery!.links.map((link) => link.context.spanId)).toEqual([call.spanContext().spanId]);
  expect(delivery!.attributes).toMatchObject({ "messaging.destination.name": "room:1", "messaging.operation.type": "process" });
});

test("a message published outside any span travels as it always did", async () => {
  const driver = new InProcessPubSub();
  const payloads: string[] = [];
  driver.onMessage((_channel, payload) => payloads.push(payload));
  await driver.subscribe("room:2");
  await new ChannelPublisher(driver, {}).publish("room:2", { text: "plain" });
  await waitFor(() => payloads.length === 1);
  expect(JSON.parse(payloads[0]!)).toEqual({ messageType: "message", channel: "room:2", message: { text: "plain" } });
});
