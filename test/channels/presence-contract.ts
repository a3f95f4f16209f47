import type { PresenceStore } from "herald";

/** The behaviour every PresenceStore shares; each store's test file runs it. */
export function describePresenceContract(name: string, create: () => Promise<PresenceStore>): void {
  describe(`PresenceStore contract: ${name}`, () => {
    let store: PresenceStore;
    beforeEach(async () => {
      store = await create();
    });
    afterEach(() => store.close());

    const member = (presenceKey: string, memberId: string, channel = "room") => ({ channel, presenceKey, memberId });

    test("a key joins with its first member and leaves with its last", async () => {
      expect(await store.join(member("ada", "c1"))).toBe(true);
      expect(await store.join(member("ada", "c2"))).toBe(false);
      expect(await store.join(member("bob", "c3"))).toBe(true);
      expect((await store.members("room")).sort()).toEqual(["ada", "bob"]);
      expect(await store.leave(member("ada", "c1"))).toBe(false);
      expect(await store.members("room")).toContain("ada");
      expect(await store.leave(member("ada", "c2"))).toBe(true);
      expect(await store.members("room")).toEqual(["bob"]);
    });

    test("joining twice with the same member counts once", async () => {
      await store.join(member("ada", "c1"));
      expect(await store.join(member("ada", "c1"))).toBe(false);
      expect(await store.leave(member("ada", "c1"))).toBe(true);
    });

    test("leaving with a member that never joined changes nothing", async () => {
      await store.join(member("ada", "c1"));
      expect(await store.leave(member("ada", "stranger"))).toBe(false);
      expect(await store.leave(member("nobody", "c9"))).toBe(false);
      expect(await store.members("room")).toEqual(["ada"]);
    });

    test("channels are independent", async () => {
      await store.join(member("ada", "c1", "one"));
      await store.join(member("bob", "c2", "two"));
      expect(await store.members("one")).toEqual(["ada"]);
      expect(await store.members("two")).toEqual(["bob"]);
      expect(await store.members("three")).toEqual([]);
    });

    test("presence keys may hold any characters", async () => {
      const key = "user #7: Ada Lovelace ✓";
      await store.join(member(key, "c1", "chars"));
      expect(await store.members("chars")).toEqual([key]);
      expect(await store.leave(member(key, "c1", "chars"))).toBe(true);
    });

    test("refreshing live members and sweeping report nothing", async () => {
      const entries = [member("ada", "c1", "live"), member("bob", "c2", "live")];
      for (const entry of entries) await store.join(entry);
      expect(await store.refresh(entries)).toEqual([]);
      expect((await store.sweep()).filter((departure) => departure.channel === "live")).toEqual([]);
      expect((await store.members("live")).sort()).toEqual(["ada", "bob"]);
    });
  });
}
