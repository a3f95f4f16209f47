import { MemorySessionStore } from "herald";
import { waitFor } from "herald/testing";
import { describeSessionStoreContract } from "./store-contract";
import { generateSessionId } from "../../src/sessions/session";

describeSessionStoreContract("memory", async () => new MemorySessionStore());

describe("MemorySessionStore", () => {
  test("counts only live sessions, and close() empties it", async () => {
    const store = new MemorySessionStore({ sweepIntervalMs: 20 });
    await store.set(generateSessionId(), { a: 1 }, 60_000);
    await store.set(generateSessionId(), { a: 1 }, 50);
    expect(store.size).toBe(2);
    await waitFor(() => store.size === 1);
    await store.close();
    expect(store.size).toBe(0);
  });

  test("two stores do not share sessions: the in-process driver is for one process", async () => {
    const [first, second] = [new MemorySessionStore(), new MemorySessionStore()];
    const id = generateSessionId();
    await first.set(id, { a: 1 }, 60_000);
    await expect(second.get(id)).resolves.toBeUndefined();
    await Promise.all([first.close(), second.close()]);
  });
});
