import { ErrorType, SessionManager } from "herald";
import { waitFor } from "herald/testing";
import { CookieJar } from "./support/browser";
import { TcpProxy } from "../support/tcp-proxy";
import { RedisSessionStore } from "../../src/sessions/redis-store";
import { signSessionId } from "../../src/sessions/session-cookie";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";

const secret = "a-test-secret-of-at-least-32-characters";
const { prefix, redis } = useTestRedis("session-redis");
const unavailable = { type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE };

/** What one Herald process holds: its own Redis connection and manager, with the shared secret. */
async function startProcess(url = TEST_REDIS_URL) {
  const store = new RedisSessionStore({ url, prefix });
  await store.connect().catch(() => undefined);
  return { store, sessions: new SessionManager({ store, secret, ttlMs: 60_000 }) };
}

test("a session written through one process is read, changed and destroyed through another", async () => {
  const [one, two] = [await startProcess(), await startProcess()];
  const browser = new CookieJar();

  const login = await one.sessions.fromCookieHeader(browser.header);
  await login.set("userId", 42);
  browser.receive(one.sessions.cookieChange(login));

  const onTwo = await two.sessions.fromCookieHeader(browser.header);
  expect(onTwo.get("userId")).toBe(42);
  await onTwo.regenerate();
  browser.receive(two.sessions.cookieChange(onTwo));

  const backOnOne = await one.sessions.fromCookieHeader(browser.header);
  expect(backOnOne.id).toBe(onTwo.id);
  await backOnOne.destroy();
  await expect(redis.exists(`${prefix}${onTwo.id}`)).resolves.toBe(0);

  await Promise.all([one.store.close(), two.store.close()]);
});

describe("with Redis down", () => {
  const PROMPTLY = 3_000;

  test(
    "a connection with a session cookie still gets a session object; reading or writing it fails with 503",
    async () => {
      const { store, sessions } = await startProcess("redis://127.0.0.1:1");
      const cookieHeader = `herald.sid=${encodeURIComponent(signSessionId("some-session", secret))}`;
      const session = await sessions.fromCookieHeader(cookieHeader);
      expect(session.unavailable).toBe(true);
      expect(() => session.get("userId")).toThrow(expect.objectContaining(unavailable));
      await expect(session.set("userId", 1)).rejects.toMatchObject(unavailable);
      await expect(session.destroy()).rejects.toMatchObject(unavailable);
      expect(sessions.cookieChange(session)).toEqual({ kind: "none" });
      await store.close();
    },
    PROMPTLY,
  );

  test(
    "an anonymous connection reads nothing from the store, so it can still run; its first write fails with 503",
    async () => {
      const { store, sessions } = await startProcess("redis://127.0.0.1:1");
      const forged = await sessions.fromCookieHeader("herald.sid=not-signed");
      const anonymous = await sessions.fromCookieHeader(undefined);
      for (const session of [forged, anonymous]) {
        expect(session.unavailable).toBe(false);
        expect(session.get("userId")).toBeUndefined();
      }
      await expect(anonymous.set("userId", 1)).rejects.toMatchObject(unavailable);
      await store.close();
    },
    PROMPTLY,
  );

  test(
    "when Redis goes away during a request, a failed destroy keeps the session and its cookie",
    async () => {
      const proxy = await TcpProxy.start({ host: "127.0.0.1", port: 6379 });
      const { store, sessions } = await startProcess(`redis://127.0.0.1:${proxy.port}`);
      const browser = new CookieJar();
      const created = await sessions.fromCookieHeader(browser.header);
      await created.set("userId", 42);
      browser.receive(sessions.cookieChange(created));

      const logout = await sessions.fromCookieHeader(browser.header);
      proxy.cut();
      await waitFor(() => store.client.status !== "ready");
      await expect(logout.destroy()).rejects.toMatchObject(unavailable);
      expect(logout.id).toBe(created.id);
      expect(logout.get("userId")).toBe(42);
      expect(sessions.cookieChange(logout)).toMatchObject({ kind: "set", reason: "refreshed" });
      await store.close();
      await proxy.close();
    },
    PROMPTLY,
  );
});
