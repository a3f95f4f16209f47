import { reconnectDelay } from "../../src/client/reconnect-delay";

const lowest = () => 0;
const highest = () => 1;

test("the wait doubles from the initial delay, half of it random", () => {
  expect([1, 2, 3, 4].map((attempt) => reconnectDelay(attempt, {}, highest))).toEqual([100, 200, 400, 800]);
  expect([1, 2, 3, 4].map((attempt) => reconnectDelay(attempt, {}, lowest))).toEqual([50, 100, 200, 400]);
});

test("the wait stops growing at the longest delay", () => {
  expect(reconnectDelay(7, {}, highest)).toBe(5000);
  expect(reconnectDelay(1000, {}, highest)).toBe(5000);
  expect(reconnectDelay(3, { initialDelayMs: 20, maxDelayMs: 50 }, highest)).toBe(50);
});
