import type { PubSubDriver } from "herald";
import { waitFor } from "herald/testing";

/** Records what a driver delivers. */
export function recorder(driver: PubSubDriver): [string, string][] {
  const received: [string, string][] = [];
  driver.onMessage((channel, payload) => received.push([channel, payload]));
  return received;
}

/**
 * The behaviour every PubSubDriver shares; each driver's test file runs it. `create` returns a
 * connected driver of its own.
 */
export function describePubSubContract(name: string, create: () => Promise<PubSubDriver>): void {
  describe(`PubSubDriver contract: ${name}`, () => {
    let driver: PubSubDriver;
    let received: [string, string][];

    beforeEach(async () => {
      driver = await create();
      received = recorder(driver);
    });
    afterEach(() => driver.close());

    test("a payload published to a subscribed channel is delivered with its channel name", async () => {
      await driver.subscribe("news");
      await driver.publish("news", '{"n":1}');
      await waitFor(() => received.length === 1);
      expect(received).toEqual([["news", '{"n":1}']]);
    });

    test("payloads of one channel arrive in publish order", async () => {
      await driver.subscribe("ordered");
      const payloads = Array.from({ length: 50 }, (_, index) => String(index));
      for (const payload of payloads) await driver.publish("ordered", payload);
      await waitFor(() => received.length === 50);
      expect(received.map(([, payload]) => payload)).toEqual(payloads);
    });

    test("only subscribed channels are delivered; unsubscribing stops delivery", async () => {
      await driver.subscribe("kept");
      await driver.subscribe("dropped");
      await driver.unsubscribe("dropped");
      await driver.publish("dropped", "no");
      await driver.publish("elsewhere", "no");
      await driver.publish("kept", "yes");
      await waitFor(() => received.length === 1);
      // Published after the others: once it arrives, nothing published before it is still coming.
      await driver.publish("kept", "last");
      await waitFor(() => received.length >= 2);
      expect(received).toEqual([
        ["kept", "yes"],
        ["kept", "last"],
      ]);
    });

    test("subscribing twice delivers each payload once", async () => {
      await driver.subscribe("twice");
      await driver.subscribe("twice");
      await driver.publish("twice", "a");
      await driver.publish("twice", "b");
      await waitFor(() => received.length >= 2);
      expect(received.map(([, payload]) => payload)).toEqual(["a", "b"]);
    });

    test("publishing to a channel nobody listens to resolves", async () => {
      await expect(driver.publish("nobody", "x")).resolves.toBeUndefined();
    });

    test("delivery happens after publish returns, never inside it", async () => {
      await driver.subscribe("async");
      const publishing = driver.publish("async", "x");
      expect(received).toEqual([]);
      await publishing;
      await waitFor(() => received.length === 1);
    });

    test("ping resolves while the driver is connected", async () => {
      await expect(driver.ping()).resolves.toBeUndefined();
    });
  });
}
