import { waitFor } from "herald/testing";
import { DeadlineQueue } from "../../src/core/deadline-queue";

/** The deadlines of calls sharing one timeout, under one timer (src/core/deadline-queue.ts). */

test("deadlines expire in the order they were added, none before its time, and a cancelled one never", async () => {
  const queue = new DeadlineQueue(40);
  const expired: string[] = [];
  const early: string[] = [];
  const add = (name: string) => {
    const due = performance.now() + 40;
    return queue.add(() => {
      expired.push(name);
      if (performance.now() < due) early.push(name);
    });
  };
  add("first");
  const cancelSecond = add("second");
  add("third");
  cancelSecond();
  expect(queue.size).toBe(2);
  await waitFor(() => expired.length === 2);
  expect(expired).toEqual(["first", "third"]);
  expect(early).toEqual([]);
  expect(queue.size).toBe(0);
});

test("an empty queue keeps no process alive, and the next deadline does again", () => {
  const queue = new DeadlineQueue(60_000);
  const timer = () => (queue as unknown as { timer?: NodeJS.Timeout }).timer;
  const cancels = [queue.add(() => undefined), queue.add(() => undefined)];
  expect(timer()?.hasRef()).toBe(true);
  for (const cancel of cancels) cancel();
  expect(queue.size).toBe(0);
  expect(timer()?.hasRef() ?? false).toBe(false);
  const cancel = queue.add(() => undefined);
  expect(timer()?.hasRef()).toBe(true);
  cancel();
  expect(timer()?.hasRef() ?? false).toBe(false);
});

test("a deadline added after the head was cancelled still expires, the timer re-armed for it", async () => {
  const queue = new DeadlineQueue(30);
  const cancelHead = queue.add(() => undefined);
  let expired = false;
  await new Promise((resolve) => setTimeout(resolve, 10));
  queue.add(() => (expired = true));
  cancelHead();
  await waitFor(() => expired);
  expect(queue.size).toBe(0);
});

test("cancelling after expiry, or twice, changes nothing", async () => {
  const queue = new DeadlineQueue(5);
  let count = 0;
  const cancel = queue.add(() => (count += 1));
  await waitFor(() => count === 1);
  cancel();
  cancel();
  const other = queue.add(() => (count += 1));
  other();
  other();
  expect(queue.size).toBe(0);
  expect(count).toBe(1);
});
