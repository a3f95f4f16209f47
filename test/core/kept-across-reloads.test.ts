import { keepAcrossReload, reclaimKept } from "herald";
import { releaseKept, reloadKeeping } from "../../src/core/kept-across-reloads";

/** A resource that counts how often it was closed. */
function resource(name: string) {
  return { name, closed: 0 };
}
const close = (value: { closed: number }) => void (value.closed += 1);
const noError = (error: unknown) => {
  throw error;
};

afterEach(() => releaseKept(noError));

test("outside a reload nothing is kept: the caller releases what it holds", () => {
  const database = resource("database");
  expect(keepAcrossReload("database", database, close)).toBe(false);
  expect(reclaimKept("database")).toBeUndefined();
});

test("what a reload's stop keeps, its boot reclaims, once", async () => {
  const database = resource("database");
  const reclaimed = await reloadKeeping(
    async () => void expect(keepAcrossReload("database", database, close)).toBe(true),
    async () => [reclaimKept("database"), reclaimKept("database")],
    noError,
  );
  expect(reclaimed).toEqual([database, undefined]);
  expect(database.closed).toBe(0);
  // The reload is over: a later stop releases as always.
  expect(keepAcrossReload("database", database, close)).toBe(false);
});

test("what the new code does not reclaim is released once it has booted", async () => {
  const cache = resource("cache");
  await reloadKeeping(async () => void keepAcrossReload("cache", cache, close), async () => undefined, noError);
  expect(cache.closed).toBe(1);
  expect(reclaimKept("cache")).toBeUndefined();
});

test("a boot that fails leaves what was kept for the next attempt, and the end of herald dev releases it", async () => {
  const database = resource("database");
  const failing = reloadKeeping(
    async () => void keepAcrossReload("database", database, close),
    async () => {
      throw new Error("SyntaxError in actions/user.ts");
    },
    noError,
  );
  await expect(failing).rejects.toThrow("SyntaxError");
  expect(database.closed).toBe(0);
  await releaseKept(noError);
  expect(database.closed).toBe(1);
});

test("a release that fails is reported, and the others are still released", async () => {
  const broken = resource("broken");
  const cache = resource("cache");
  const reported: unknown[] = [];
  await reloadKeeping(
    async () => {
      keepAcrossReload("broken", broken, () => {
        throw new Error("close failed");
      });
      keepAcrossReload("cache", cache, close);
    },
    async () => undefined,
    (error) => reported.push(error),
  );
  expect(reported).toEqual([new Error("close failed")]);
  expect(cache.closed).toBe(1);
});
