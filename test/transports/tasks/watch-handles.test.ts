import { ErrorType } from "herald";
import { ownerDigest, readWatchKey, WatchHandles } from "../../../src/transports/tasks/watch-handles";

const server = (TASKS_WATCH_KEY?: string) => ({ config: { raw: TASKS_WATCH_KEY === undefined ? {} : { TASKS_WATCH_KEY } } }) as never;

test("a handle carries its job or fan-out and its watcher, and reads back only where the key is the same", () => {
  const key = "k".repeat(32);
  const one = new WatchHandles(server(key));
  const two = new WatchHandles(server(key));
  const job = { kind: "job", queue: "work", jobId: "a.b:c", owner: "session:s1" } as const;
  const fanOut = { kind: "fanOut", fanOutId: "f1", owner: "*" } as const;
  const read = two.read(one.mint(job))!;
  expect(read).toEqual({ ...job, owner: ownerDigest("session:s1") });
  expect(two.allows(read, "session:s1")).toBe(true);
  expect(two.allows(read, "session:s2")).toBe(false);
  expect(two.read(one.mint(fanOut))).toEqual(fanOut);
  expect(two.allows(two.read(one.mint(fanOut))!, "address:203.0.113.9")).toBe(true);
  expect(one.ownKey).toBe(false);
  expect(new WatchHandles(server("z".repeat(32))).read(one.mint(job))).toBeUndefined();
});

test("a handle shows neither the session id nor the address of its watcher", () => {
  const handle = new WatchHandles(server("k".repeat(32))).mint({ kind: "job", queue: "work", jobId: "1", owner: "session:the-session-id" });
  expect(Buffer.from(handle.split(".")[0]!, "base64url").toString("utf8")).not.toContain("the-session-id");
});

test("without TASKS_WATCH_KEY each instance signs with a key of its own", () => {
  const own = new WatchHandles(server());
  const handle = own.mint({ kind: "job", queue: "work", jobId: "1", owner: "address:127.0.0.1" });
  expect(own.ownKey).toBe(true);
  expect(own.read(handle)).toBeDefined();
  expect(new WatchHandles(server()).read(handle)).toBeUndefined();
});

test("an altered, truncated or foreign handle reads as nothing", () => {
  const handles = new WatchHandles(server("k".repeat(32)));
  const handle = handles.mint({ kind: "job", queue: "work", jobId: "1", owner: "session:s1" });
  const [body, mac] = handle.split(".") as [string, string];
  const otherOwner = Buffer.from(JSON.stringify(["j", "work", "1", ownerDigest("session:s2")])).toString("base64url");
  for (const bad of ["", ".", body, `${body}.`, `${otherOwner}.${mac}`, `${body}.${mac}.x`, `${body}x.${mac}`, "e30.AAAA"]) {
    expect(handles.read(bad)).toBeUndefined();
  }
});

test("a TASKS_WATCH_KEY under 32 characters fails the boot without showing it", () => {
  expect(() => readWatchKey(server("short"))).toThrow(expect.objectContaining({ type: ErrorType.CONFIG_ERROR, key: "TASKS_WATCH_KEY" }));
  expect(() => readWatchKey(server("short"))).toThrow(expect.not.objectContaining({ message: expect.stringContaining("short") }));
});
