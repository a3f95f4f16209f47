import { waitFor, HOOK_TIMEOUT } from "herald/testing";

test("resolves as soon as the condition holds", async () => {
  let calls = 0;
  await waitFor(() => ++calls >= 3, { interval: 1, timeout: 1000 });
  expect(calls).toBe(3);
});

test("accepts async conditions and keeps polling through thrown errors", async () => {
  let calls = 0;
  await waitFor(
    async () => {
      calls += 1;
      if (calls < 2) throw new Error("not yet");
      return true;
    },
    { interval: 1, timeout: 1000 },
  );
  expect(calls).toBe(2);
});

test("fails with a clear message, including the last error, when time runs out", async () => {
  await expect(waitFor(() => false, { interval: 5, timeout: 20 })).rejects.toThrow("waitFor: condition not met within 20 ms");
  await expect(
    waitFor(
      () => {
        throw new Error("still broken");
      },
      { interval: 5, timeout: 20 },
    ),
  ).rejects.toThrow(/last error: still broken/);
});

test("HOOK_TIMEOUT is 60000", () => {
  expect(HOOK_TIMEOUT).toBe(60000);
});
