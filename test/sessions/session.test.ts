import { ErrorType, MemorySessionStore, Session, SessionManager } from "herald";
import { waitFor } from "herald/testing";
import { CookieJar } from "./support/browser";

const secret = "a-test-secret-of-at-least-32-characters";
let store: MemorySessionStore;
let sessions: SessionManager;

beforeEach(() => {
  store = new MemorySessionStore();
  sessions = new SessionManager({ store, secret, ttlMs: 60_000 });
});

afterEach(async () => {
  await store.close();
});

describe("an anonymous connection", () => {
  test("has no session id and no data, and nothing is stored", async () => {
    const session = await sessions.fromCookieHeader(undefined);
    expect(session.id).toBeUndefined();
    expect(session.get("userId")).toBeUndefined();
    expect(session.all()).toEqual({});
    expect(store.size).toBe(0);
  });

  test("without a session cookie the session comes at once, readable, and no cookie is sent back", () => {
    for (const header of [undefined, "theme=dark; other=1"]) {
      const session = sessions.fromCookieHeader(header);
      expect(session).toBeInstanceOf(Session);
      expect((session as Session).all()).toEqual({});
      expect(sessions.cookieChange(session as Session)).toEqual({ kind: "none" });
    }
  });

  test("a cookie that is not validly signed is read through the store path and cleared afterwards", async () => {
    const found = sessions.fromCookieHeader("herald.sid=forged");
    expect(found).toBeInstanceOf(Promise);
    const session = await found;
    expect(session.id).toBeUndefined();
    expect(sessions.cookieChange(session)).toMatchObject({ kind: "clear", reason: "unknown" });
  });

  test("stays out of the store when it only reads, deletes, regenerates or destroys", async () => {
    const session = await sessions.fromCookieHeader(undefined);
    await session.delete("userId");
    await session.regenerate();
    await session.destroy();
    expect(session.id).toBeUndefined();
    expect(store.size).toBe(0);
  });

  test("gets a session with a fresh id on its first write", async () => {
    const session = await sessions.fromCookieHeader(undefined);
    await session.set("theme", "dark");
    expect(session.id).toEqual(expect.any(String));
    expect(session.change).toBe("created");
    await expect(store.get(session.id!)).resolves.toEqual({ theme: "dark" });
  });

  test("anonymous sessions share no data: a write to one, and what it keeps after a destroy, is never read by another", async () => {
    const first = await sessions.fromCookieHeader(undefined);
    const second = await sessions.fromCookieHeader(undefined);
    await first.set("theme", "dark");
    expect(second.get("theme")).toBeUndefined();
    await first.destroy();
    expect(first.all()).toEqual({});
    await first.set("lang", "fr");
    await second.set("theme", "light");
    expect(first.all()).toEqual({ lang: "fr" });
    expect(second.all()).toEqual({ theme: "light" });
    expect((await sessions.fromCookieHeader(undefined)).all()).toEqual({});
  });
});

describe("reading and writing", () => {
  test("a write is seen at once by the same session and by the next connection with the id", async () => {
    const session = await sessions.open();
    await session.set("userId", 42);
    await session.set("roles", ["admin"]);
    expect(session.get<number>("userId")).toBe(42);
    expect(session.all()).toEqual({ userId: 42, roles: ["admin"] });
    const later = await sessions.open(session.id);
    expect(later.id).toBe(session.id);
    expect(later.all()).toEqual({ userId: 42, roles: ["admin"] });
  });

  test("values read back as JSON, at once as on the next request", async () => {
    const session = await sessions.open();
    await session.set("since", new Date("2024-01-02T03:04:05.000Z"));
    expect(session.get("since")).toBe("2024-01-02T03:04:05.000Z");
    expect((await sessions.open(session.id)).get("since")).toBe("2024-01-02T03:04:05.000Z");
  });

  test("setting undefined deletes the key, and delete removes it from the store", async () => {
    const session = await sessions.open();
    await session.set("a", 1);
    await session.set("b", 2);
    await session.set("a", undefined);
    await session.delete("b");
    expect(session.all()).toEqual({});
    await expect(store.get(session.id!)).resolves.toEqual({});
  });

  test("a value JSON cannot carry is refused and nothing is stored", async () => {
    const session = await sessions.open();
    await expect(session.set("big", 1n)).rejects.toMatchObject({ type: ErrorType.CONNECTION_SERVER_ERROR });
    expect(session.id).toBeUndefined();
    expect(store.size).toBe(0);
  });

  test("concurrent writes on one session all land", async () => {
    const session = await sessions.open();
    await Promise.all([session.set("a", 1), session.set("b", 2), session.set("c", 3)]);
    await expect(store.get(session.id!)).resolves.toEqual({ a: 1, b: 2, c: 3 });
  });

  test("reading a session that was never loaded is a programming error, not an empty session", () => {
    const session = new Session(store, 60_000, "some-id");
    expect(() => session.get("userId")).toThrow(expect.objectContaining({ type: ErrorType.CONNECTION_SERVER_ERROR }));
  });
});

describe("TTL", () => {
  test("using a session keeps it alive while an unused one expires", async () => {
    // The test's own clock: on a busy machine real time could pass the TTL between two uses.
    let now = Date.now();
    const clock = jest.spyOn(Date, "now").mockImplementation(() => now);
    try {
      const short = new SessionManager({ store, secret, ttlMs: 300 });
      const used = await short.open();
      await used.set("n", 1);
      const unused = await short.open();
      await unused.set("n", 1);
      for (let use = 0; use < 3; use += 1) {
        now += 200;
        await short.open(used.id);
      }
      expect(await store.get(unused.id!)).toBeUndefined();
      expect((await short.open(used.id)).get("n")).toBe(1);
    } finally {
      clock.mockRestore();
    }
  });

  test("an expired session leaves the connection anonymous", async () => {
    const short = new SessionManager({ store, secret, ttlMs: 100 });
    const session = await short.open();
    await session.set("n", 1);
    await waitFor(async () => (await store.get(session.id!)) === undefined);
    const later = await short.open(session.id);
    expect(later.id).toBeUndefined();
    expect(later.all()).toEqual({});
  });
});

describe("destroy", () => {
  test("removes the session and its data from the store", async () => {
    const session = await sessions.open();
    await session.set("userId", 42);
    const id = session.id!;
    await session.destroy();
    expect(session.id).toBeUndefined();
    expect(session.all()).toEqual({});
    expect(session.change).toBe("destroyed");
    await expect(store.get(id)).resolves.toBeUndefined();
    expect((await sessions.open(id)).id).toBeUndefined();
  });

  test("a write after destroy starts another session with another id", async () => {
    const session = await sessions.open();
    await session.set("userId", 42);
    const destroyedId = session.id;
    await session.destroy();
    await session.set("theme", "light");
    expect(session.id).not.toBe(destroyedId);
    expect(session.all()).toEqual({ theme: "light" });
  });
});

describe("regenerate", () => {
  test("moves the data to a new id and deletes the old one", async () => {
    const created = await sessions.open();
    await created.set("cart", ["tea"]);
    const oldId = created.id!;
    const session = await sessions.open(oldId);
    await session.regenerate();
    expect(session.id).toEqual(expect.any(String));
    expect(session.id).not.toBe(oldId);
    expect(session.change).toBe("regenerated");
    expect(session.get("cart")).toEqual(["tea"]);
    await expect(store.get(session.id!)).resolves.toEqual({ cart: ["tea"] });
    await expect(store.get(oldId)).resolves.toBeUndefined();
  });

  test("a session created and regenerated during one request is still a created one", async () => {
    const session = await sessions.open();
    await session.set("a", 1);
    await session.regenerate();
    expect(session.change).toBe("created");
  });
});

describe("reload, for long-lived connections", () => {
  test("sees what another connection wrote meanwhile", async () => {
    const socket = await sessions.open();
    await socket.set("a", 1);
    const request = await sessions.open(socket.id);
    await request.set("b", 2);
    expect(socket.get("b")).toBeUndefined();
    await socket.reload();
    expect(socket.all()).toEqual({ a: 1, b: 2 });
  });

  test("on a session never loaded, loads it", async () => {
    const created = await sessions.open();
    await created.set("a", 1);
    const socket = new Session(store, 60_000, created.id);
    await socket.reload();
    expect(socket.all()).toEqual({ a: 1 });
  });

  test("turns anonymous when another connection destroyed the session", async () => {
    const socket = await sessions.open();
    await socket.set("userId", 1);
    await (await sessions.open(socket.id)).destroy();
    await socket.reload();
    expect(socket.id).toBeUndefined();
    expect(socket.get("userId")).toBeUndefined();
  });
});

/** The in-process store, each read's answer held back until the test lets it go. */
class HeldReadsStore extends MemorySessionStore {
  reads = 0;
  readonly held: (() => void)[] = [];

  override async get(id: string, refreshTtlMs?: number) {
    this.reads += 1;
    const data = await super.get(id, refreshTtlMs);
    await new Promise<void>((resolve) => this.held.push(resolve));
    return data;
  }

  async release(): Promise<void> {
    await waitFor(() => this.held.length > 0);
    this.held.shift()!();
  }
}

describe("reload while a read is out", () => {
  let held: HeldReadsStore;
  let socket: Session;

  beforeEach(async () => {
    held = new HeldReadsStore();
    const created = new Session(held, 60_000);
    await created.load();
    await created.set("userId", 1);
    socket = new Session(held, 60_000, created.id);
    const loaded = socket.load();
    await held.release();
    await loaded;
  });

  afterEach(async () => {
    await held.close();
  });

  test("waits for a read begun after it, so a session ended while a read was out is seen; the callers meanwhile share that read", async () => {
    const readsBefore = held.reads;
    const first = socket.reload();
    await waitFor(() => held.held.length === 1);
    await held.delete(socket.id!);
    const [second, third] = [socket.reload(), socket.reload()];
    await held.release();
    await first;
    expect(socket.get("userId")).toBe(1);
    await held.release();
    await Promise.all([second, third]);
    expect(socket.id).toBeUndefined();
    expect(socket.get("userId")).toBeUndefined();
    expect(held.reads - readsBefore).toBe(2);
  });

  test("a read begun before a write of the same connection does not undo the write when it lands", async () => {
    const written = socket.set("theme", "dark");
    const reread = socket.reload();
    await held.release();
    await Promise.all([written, reread]);
    expect(socket.all()).toEqual({ userId: 1, theme: "dark" });
  });
});

describe("the cookie the transport sends after the action", () => {
  test("none for an anonymous connection that wrote nothing", async () => {
    const session = await sessions.fromCookieHeader(undefined);
    session.get("userId");
    expect(sessions.cookieChange(session)).toEqual({ kind: "none" });
  });

  test("a signed cookie with the new id when the session is created, then the same id again on each use", async () => {
    const browser = new CookieJar();
    const first = await sessions.fromCookieHeader(browser.header);
    await first.set("userId", 42);
    const created = sessions.cookieChange(first);
    expect(created).toMatchObject({ kind: "set", reason: "created", id: first.id });
    browser.receive(created);

    const second = await sessions.fromCookieHeader(browser.header);
    expect(second.id).toBe(first.id);
    expect(second.get("userId")).toBe(42);
    const refreshed = sessions.cookieChange(second);
    expect(refreshed).toMatchObject({ kind: "set", reason: "refreshed", id: first.id });
    expect(refreshed.kind === "set" && refreshed.header).toMatch(/Max-Age=60;/);
  });

  test("the new id after regenerate, and the old cookie then opens no session", async () => {
    const browser = new CookieJar();
    const login = await sessions.fromCookieHeader(browser.header);
    await login.set("cart", ["tea"]);
    browser.receive(sessions.cookieChange(login));
    const beforeLogin = browser.header;

    const next = await sessions.fromCookieHeader(browser.header);
    await next.regenerate();
    await next.set("userId", 42);
    const change = sessions.cookieChange(next);
    expect(change).toMatchObject({ kind: "set", reason: "regenerated", id: next.id });
    browser.receive(change);

    expect((await sessions.fromCookieHeader(browser.header)).all()).toEqual({ cart: ["tea"], userId: 42 });
    const stolen = await sessions.fromCookieHeader(beforeLogin);
    expect(stolen.id).toBeUndefined();
    expect(sessions.cookieChange(stolen)).toMatchObject({ kind: "clear", reason: "unknown" });
  });

  test("a clearing cookie after destroy", async () => {
    const browser = new CookieJar();
    const session = await sessions.fromCookieHeader(browser.header);
    await session.set("userId", 42);
    browser.receive(sessions.cookieChange(session));

    const logout = await sessions.fromCookieHeader(browser.header);
    await logout.destroy();
    const change = sessions.cookieChange(logout);
    expect(change).toMatchObject({ kind: "clear", reason: "destroyed" });
    expect(change.kind === "clear" && change.header).toMatch(/^herald\.sid=; Max-Age=0;/);
    browser.receive(change);
    expect(browser.header).toBeUndefined();
  });

  test("a clearing cookie for a tampered cookie, which opens no session", async () => {
    const browser = new CookieJar();
    const session = await sessions.fromCookieHeader(browser.header);
    await session.set("userId", 42);
    browser.receive(sessions.cookieChange(session));
    const tampered = browser.header!.replace(/herald\.sid=./, (start) => (start.endsWith("A") ? `${start.slice(0, -1)}B` : `${start.slice(0, -1)}A`));

    const forged = await sessions.fromCookieHeader(tampered);
    expect(forged.id).toBeUndefined();
    expect(forged.get("userId")).toBeUndefined();
    expect(sessions.cookieChange(forged)).toMatchObject({ kind: "clear", reason: "unknown" });
  });

  test("a cookie naming a session that is gone opens none, and a write gets a new id instead of reviving it", async () => {
    const browser = new CookieJar();
    browser.receive({ kind: "set", reason: "created", id: "expired-id", header: sessions.cookie.serialize("expired-id") });
    const session = await sessions.fromCookieHeader(browser.header);
    expect(session.presentedId).toBe("expired-id");
    expect(session.id).toBeUndefined();
    await session.set("userId", 42);
    expect(session.id).not.toBe("expired-id");
    expect(sessions.cookieChange(session)).toMatchObject({ kind: "set", reason: "created", id: session.id });
    await expect(store.get("expired-id")).resolves.toBeUndefined();
  });

  test("uses the configured cookie name", async () => {
    const named = new SessionManager({ store, secret, ttlMs: 60_000, cookieName: "app.session" });
    const session = await named.fromCookieHeader(undefined);
    await session.set("a", 1);
    const change = named.cookieChange(session);
    expect(change.kind === "set" && change.header).toMatch(/^app\.session=/);
  });
});
