import { waitFor } from "herald/testing";
import { AddressBackoff } from "../../../src/transports/websocket/address-backoff";

test("an address backed off is told how many whole seconds are left; others are not held", () => {
  const backoff = new AddressBackoff(60_000);
  backoff.backOff("203.0.113.9");
  expect(backoff.retryAfter("203.0.113.9")).toBe(60);
  expect(backoff.retryAfter("203.0.113.10")).toBeUndefined();
  expect(backoff.retryAfter(undefined)).toBeUndefined();
});

test("0 backs nobody off", () => {
  const backoff = new AddressBackoff(0);
  backoff.backOff("203.0.113.9");
  expect(backoff.retryAfter("203.0.113.9")).toBeUndefined();
  expect(backoff.size).toBe(0);
});

test("expired addresses are dropped as others are added, so the addresses held stay bounded by those backed off at once", async () => {
  const backoff = new AddressBackoff(1);
  for (let index = 0; index < 1000; index += 1) backoff.backOff(`10.0.${index >> 8}.${index & 255}`);
  const lastAdded = performance.now();
  await waitFor(() => performance.now() > lastAdded + 1);
  for (let index = 0; index < 1000; index += 1) backoff.backOff(`10.1.${index >> 8}.${index & 255}`);
  expect(backoff.size).toBeLessThan(2000);
});
