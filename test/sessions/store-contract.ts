import { ErrorType, type SessionStore } from "herald";
import { waitFor } from "herald/testing";
import { generateSessionId } from "../../src/sessions/session";

const LONG = 60_000;
const SHORT = 150;

/**
 * The behaviour every SessionStore driver promises, run against each one. `create` gives a fresh
 * store for a test; it is closed afterwards.
 */
export function describeSessionStoreContract(driver: string, create: () => Promise<SessionStore>): void {
  describe(`SessionStore contract: ${driver}`, () => {
    let store: SessionStore;

    beforeEach(async () => {
      store = await create();
    });

    afterEach(async () => {
      await store.close();
    });

    test("names its driver", () => {
      expect(store.driver).toBe(driver);
    });

    test("an unknown id has no session", async () => {
      await expect(store.get(generateSessionId())).resolves.toBeUndefined();
      await expect(store.get(generateSessionId(), LONG)).resolves.toBeUndefined();
    });

    test("keeps JSON values as they were written", async () => {
      const id = generateSessionId();
      const data = {
        userId: 42,
        name: "Zoë ✓",
        empty: "",
        admin: false,
        nothing: null,
        roles: ["reader", "writer"],
        profile: { theme: "dark", sizes: [1, 2.5, -3] },
      };
      await store.set(id, data, LONG);
      await expect(store.get(id)).resolves.toEqual(data);
    });

    test("stores a snapshot: later changes to the written or the returned object are not stored", async () => {
      const id = generateSessionId();
      const data: Record<string, unknown> = { cart: ["apple"] };
      await store.set(id, data, LONG);
      (data.cart as string[]).push("pear");
      const read = (await store.get(id))!;
      (read.cart as string[]).push("plum");
      await expect(store.get(id)).resolves.toEqual({ cart: ["apple"] });
    });

    test("stores values as JSON: dates become strings and undefined members are dropped", async () => {
      const id = generateSessionId();
      await store.set(id, { at: new Date("2024-05-06T07:08:09.000Z"), gone: undefined }, LONG);
      await expect(store.get(id)).resolves.toEqual({ at: "2024-05-06T07:08:09.000Z" });
    });

    test("treats __proto__ and constructor as plain keys", async () => {
      const id = generateSessionId();
      await store.set(id, JSON.parse('{"__proto__": {"polluted": true}, "constructor": "plain"}'), LONG);
      const read = (await store.get(id))!;
      expect(Object.keys(read).sort()).toEqual(["__proto__", "constructor"]);
      expect(read["constructor"]).toBe("plain");
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    test("refuses a value JSON cannot carry", async () => {
      await expect(store.set(generateSessionId(), { big: 1n }, LONG)).rejects.toMatchObject({
        type: ErrorType.CONNECTION_SERVER_ERROR,
      });
    });

    test("refuses a TTL that is not a positive number", async () => {
      await expect(store.set(generateSessionId(), { a: 1 }, 0)).rejects.toMatchObject({
        type: ErrorType.CONNECTION_SERVER_ERROR,
      });
    });

    test("a write replaces the whole session", async () => {
      const id = generateSessionId();
      await store.set(id, { a: 1, b: 2 }, LONG);
      await store.set(id, { c: 3 }, LONG);
      await expect(store.get(id)).resolves.toEqual({ c: 3 });
    });

    test("keeps sessions apart by id", async () => {
      const [first, second] = [generateSessionId(), generateSessionId()];
      await store.set(first, { who: "first" }, LONG);
      await store.set(second, { who: "second" }, LONG);
      await store.delete(first);
      await expect(store.get(first)).resolves.toBeUndefined();
      await expect(store.get(second)).resolves.toEqual({ who: "second" });
    });

    test("delete forgets a session, and deleting an unknown id is not an error", async () => {
      const id = generateSessionId();
      await store.set(id, { a: 1 }, LONG);
      await store.delete(id);
      await expect(store.get(id)).resolves.toBeUndefined();
      await expect(store.delete(generateSessionId())).resolves.toBeUndefined();
    });

    test("a session expires its TTL after it was written", async () => {
      const id = generateSessionId();
      await store.set(id, { a: 1 }, SHORT);
      await expect(store.get(id)).resolves.toEqual({ a: 1 });
      await waitFor(async () => (await store.get(id)) === undefined);
    });

    test("reading without a refresh leaves the expiry where it was", async () => {
      const [read, control] = [generateSessionId(), generateSessionId()];
      await store.set(read, { a: 1 }, SHORT);
      await store.set(control, { a: 1 }, SHORT);
      await store.get(read);
      await waitFor(async () => (await store.get(control)) === undefined);
      await expect(store.get(read)).resolves.toBeUndefined();
    });

    test("reading with a refresh moves the expiry to a full TTL from now", async () => {
      const [refreshed, control] = [generateSessionId(), generateSessionId()];
      await store.set(control, { a: 1 }, SHORT);
      await store.set(refreshed, { a: 1 }, SHORT);
      await expect(store.get(refreshed, LONG)).resolves.toEqual({ a: 1 });
      await waitFor(async () => (await store.get(control)) === undefined);
      await expect(store.get(refreshed)).resolves.toEqual({ a: 1 });
    });

    test("a write restarts the TTL", async () => {
      const [rewritten, control] = [generateSessionId(), generateSessionId()];
      await store.set(control, { a: 1 }, SHORT);
      await store.set(rewritten, { a: 1 }, SHORT);
      await store.set(rewritten, { a: 2 }, LONG);
      await waitFor(async () => (await store.get(control)) === undefined);
      await expect(store.get(rewritten)).resolves.toEqual({ a: 2 });
    });

    test("deleteOwned forgets the owner's sessions but the one kept, and nobody else's", async () => {
      const [kept, other, third, strangers] = [generateSessionId(), generateSessionId(), generateSessionId(), generateSessionId()];
      for (const id of [kept, other, third, strangers]) await store.set(id, { a: 1 }, LONG);
      for (const id of [kept, other, third]) await store.addOwned("7", id);
      await store.addOwned("8", strangers);
      await store.deleteOwned("7", kept);
      await expect(store.get(other)).resolves.toBeUndefined();
      await expect(store.get(third)).resolves.toBeUndefined();
      await expect(store.get(kept)).resolves.toEqual({ a: 1 });
      await expect(store.get(strangers)).resolves.toEqual({ a: 1 });
      const later = generateSessionId();
      await store.set(later, { a: 2 }, LONG);
      await store.addOwned("7", later);
      await store.deleteOwned("7");
      await expect(store.get(kept)).resolves.toBeUndefined();
      await expect(store.get(later)).resolves.toBeUndefined();
      await expect(store.deleteOwned("nobody")).resolves.toBeUndefined();
    });

    test("deleteOwned finds a session kept alive by refreshes and writes past the TTL it was owned with", async () => {
      const [read, written, control] = [generateSessionId(), generateSessionId(), generateSessionId()];
      for (const id of [read, written, control]) await store.set(id, { a: 1 }, SHORT);
      await store.addOwned("9", read);
      await store.addOwned("9", written);
      await store.get(read, LONG);
      await store.set(written, { a: 2 }, LONG);
      await waitFor(async () => (await store.get(control)) === undefined);
      await store.deleteOwned("9");
      await expect(store.get(read)).resolves.toBeUndefined();
      await expect(store.get(written)).resolves.toBeUndefined();
    });

    test("refreshing an unknown id does not create a session", async () => {
      const id = generateSessionId();
      await expect(store.get(id, LONG)).resolves.toBeUndefined();
      await store.set(generateSessionId(), { unrelated: true }, LONG);
      await expect(store.get(id)).resolves.toBeUndefined();
    });
  });
}
