import { join } from "node:path";
import { Connection, CONNECTION_TYPE, ErrorType, HeraldServer, RUN_MODE, MemorySessionStore, SessionManager, SESSION_STORE_TOKEN, type ServerOptions, type SessionCookieChange } from "herald";
import { startTestServer } from "herald/testing";
import { CookieJar } from "./support/browser";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { jsonLogs } from "../support/json-logs";
import { RedisSessionStore } from "../../src/sessions/redis-store";
import { SessionsInitializer } from "../../src/sessions/sessions-initializer";
import { reclaimKept, reloadKeeping } from "../../src/core/kept-across-reloads";

const appDir = join(__dirname, "fixtures/app");
const secret = "a-test-secret-of-at-least-32-characters";
const { prefix, redis } = useTestRedis("sessions-initializer");

const servers: HeraldServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

/** A server with only the sessions initializer, on the fixture app; `start: false` only creates it. */
function createServer(env: NodeJS.ProcessEnv, options: Partial<ServerOptions> = {}): HeraldServer {
  const server = new HeraldServer({
    appDir,
    builtins: [SessionsInitializer],
    env: { NODE_ENV: "test", SESSION_SECRET: secret, ...env },
    ...options,
  });
  servers.push(server);
  return server;
}

function sessionsOf(server: HeraldServer) {
  return server.initializers.find((initializer) => initializer.name === "sessions") as SessionsInitializer;
}

/** Runs an action the way a transport does: the session from the cookie, then the cookie back. */
async function call(server: HeraldServer, jar: CookieJar, action: string, params: object = {}) {
  const sessions = server.container.resolve(SessionManager);
  const session = await sessions.fromCookieHeader(jar.header);
  const result = await server.runAction(action, params, new Connection({ type: CONNECTION_TYPE.web, session }));
  const change: SessionCookieChange = sessions.cookieChange(session);
  jar.receive(change);
  return { ...result, change };
}

describe("without REDIS_URL", () => {
  test("keeps sessions in process and registers the store and the manager in the container", async () => {
    const server = await createServer({}).start();
    const { store, manager } = sessionsOf(server);
    expect(store).toBeInstanceOf(MemorySessionStore);
    expect(server.container.resolve(SESSION_STORE_TOKEN)).toBe(store);
    expect(server.container.resolve(SessionManager)).toBe(manager);
    expect((await server.health.report()).services).not.toHaveProperty("redis");
  });

  test("applies to every run mode", async () => {
    for (const runMode of ["server", "cli", "workers", "mcp"] as const) {
      const server = await createServer({}, { runMode }).start();
      expect(server.initializers.map((initializer) => initializer.name)).toContain("sessions");
    }
  });

  test("actions log in, read the session, and log out through connection.session", async () => {
    const server = await createServer({}).start();
    const browser = new CookieJar();

    expect(await call(server, browser, "account:whoami")).toMatchObject({ status: 401, change: { kind: "none" } });
    const login = await call(server, browser, "account:login", { name: "ada" });
    expect(login).toMatchObject({ status: 200, response: { user: "ada" }, change: { kind: "set", reason: "created" } });
    expect(await call(server, browser, "account:whoami")).toMatchObject({
      response: { user: "ada" },
      change: { kind: "set", reason: "refreshed" },
    });
    expect(await call(server, browser, "account:login", { name: "grace" })).toMatchObject({
      change: { kind: "set", reason: "regenerated" },
    });
    expect(await call(server, browser, "account:logout")).toMatchObject({ change: { kind: "clear", reason: "destroyed" } });
    expect(browser.header).toBeUndefined();
    expect(await call(server, browser, "account:whoami")).toMatchObject({ status: 401 });
  });

  test("injects the store and the manager into app classes", async () => {
    const server = await createServer({ SESSION_TTL: "3600000", SESSION_COOKIE: "app.sid" }).start();
    const result = await server.runAction("account:session-info", {}, new Connection({ type: CONNECTION_TYPE.cli }));
    expect(result.response).toEqual({ driver: "memory", cookie: "app.sid", ttlMs: 3_600_000 });
  });

  test("uses a SessionStore registered by the app or a test, and leaves closing it to its owner", async () => {
    const store = new MemorySessionStore();
    const server = await createServer({}, { overrides: [{ token: SESSION_STORE_TOKEN, useValue: store }] }).start();
    expect(sessionsOf(server).store).toBe(store);
    const session = await sessionsOf(server).manager.open();
    await session.set("kept", true);
    await server.stop();
    expect(store.size).toBe(1);
    await store.close();
  });
});

describe("with REDIS_URL", () => {
  test("keeps sessions in Redis under SESSION_REDIS_PREFIX, reports a redis health check, and disconnects at stop", async () => {
    const server = await createServer({ REDIS_URL: TEST_REDIS_URL, SESSION_REDIS_PREFIX: prefix }).start();
    const { store, manager } = sessionsOf(server);
    expect(store).toBeInstanceOf(RedisSessionStore);
    expect((await server.health.report()).services.redis).toMatchObject({ healthy: true });
    const info = await server.runAction("account:session-info", {}, new Connection({ type: CONNECTION_TYPE.cli }));
    expect(info.response).toMatchObject({ driver: "redis" });

    const session = await manager.open();
    await session.set("userId", 42);
    await expect(redis.get(`${prefix}${session.id}`)).resolves.toBe('{"userId":42}');

    await server.stop();
    expect((store as RedisSessionStore).client.status).toBe("end");
  });

  test("boots while Redis is unreachable; the health check and session writes then report it", async () => {
    const { lines, stream } = jsonLogs();
    const server = await createServer(
      { REDIS_URL: "redis://127.0.0.1:1", LOG_FORMAT: "json" },
      { logDestination: stream },
    ).start();
    expect(lines.some((line) => line.msg === "sessions: Redis is not reachable yet")).toBe(true);
    expect((await server.health.report()).services.redis).toMatchObject({ healthy: false });
    const session = await sessionsOf(server).manager.open();
    await expect(session.set("userId", 1)).rejects.toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
  });
});

describe("settings", () => {
  test("SESSION_SECRET is required in production", async () => {
    const server = createServer({ NODE_ENV: "production", SESSION_SECRET: undefined });
    await expect(server.start()).rejects.toMatchObject({ type: ErrorType.CONFIG_ERROR, key: "SESSION_SECRET" });
  });

  test("a run mode that serves no cookie needs no SESSION_SECRET, in production too, and says nothing of it", async () => {
    for (const runMode of [RUN_MODE.cli, RUN_MODE.workers, RUN_MODE.mcp]) {
      const { lines, stream } = jsonLogs();
      const env = { NODE_ENV: "production", SESSION_SECRET: undefined, LOG_FORMAT: "json", LOG_LEVEL: "debug" };
      const server = await createServer(env, { runMode, logDestination: stream }).start();
      expect(sessionsOf(server).manager).toBeInstanceOf(SessionManager);
      expect(lines.filter((line) => String(line.msg).includes("SESSION_SECRET"))).toEqual([]);
    }
  });

  test("the server run mode, outside production and test, warns once that cookies will not outlive the process", async () => {
    const { lines, stream } = jsonLogs();
    await createServer({ NODE_ENV: "development", SESSION_SECRET: undefined, LOG_FORMAT: "json" }, { logDestination: stream }).start();
    const warnings = lines.filter((line) => String(line.msg).startsWith("SESSION_SECRET is not set"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
  });

  test("a short SESSION_SECRET is refused without repeating it in the error", async () => {
    const server = createServer({ SESSION_SECRET: "too-short" });
    const error = await server.start().then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(error).toMatchObject({ type: ErrorType.CONFIG_ERROR, key: "SESSION_SECRET" });
    expect(JSON.stringify(error)).not.toContain("too-short");
    expect((error as Error).message).not.toContain("too-short");
  });

  test.each([
    ["SESSION_TTL", "soon"],
    ["SESSION_TTL", "-5"],
    ["SESSION_COOKIE", "has space"],
  ])("%s=%s is a CONFIG_ERROR naming the variable", async (variable, value) => {
    await expect(createServer({ [variable]: value }).start()).rejects.toMatchObject({
      type: ErrorType.CONFIG_ERROR,
      key: variable,
    });
  });

  test("in production the cookie is Secure; SESSION_TTL and SESSION_COOKIE set its Max-Age and name", async () => {
    const server = await createServer({
      NODE_ENV: "production",
      SESSION_TTL: "7200000",
      SESSION_COOKIE: "app.sid",
      LOG_LEVEL: "error",
    }).start();
    const browser = new CookieJar();
    const { change } = await call(server, browser, "account:login", { name: "ada" });
    expect(change.kind === "set" && change.header).toMatch(/^app\.sid=.*; Max-Age=7200; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  });

  test("without SESSION_SECRET outside production, each process signs with its own random secret and warns", async () => {
    const { lines, stream } = jsonLogs();
    const env = { NODE_ENV: "development", SESSION_SECRET: undefined, LOG_FORMAT: "json" };
    const one = await createServer(env, { logDestination: stream }).start();
    const two = await createServer(env, { logDestination: stream }).start();
    expect(lines.filter((line) => line.msg.startsWith("SESSION_SECRET is not set")).every((line) => line.level === 40)).toBe(true);
    expect(lines.filter((line) => line.msg.startsWith("SESSION_SECRET is not set"))).toHaveLength(2);

    const browser = new CookieJar();
    await call(one, browser, "account:login", { name: "ada" });
    expect(await call(one, browser, "account:whoami")).toMatchObject({ response: { user: "ada" } });
    expect(await call(two, browser, "account:whoami")).toMatchObject({ status: 401, change: { kind: "clear" } });
  });

  test("a herald dev reload keeps the random secret and the in-process sessions: a signed-in browser stays signed in, unwarned", async () => {
    const { lines, stream } = jsonLogs();
    const env = { NODE_ENV: "development", SESSION_SECRET: undefined, LOG_FORMAT: "json" };
    const before = await createServer(env, { logDestination: stream }).start();
    const browser = new CookieJar();
    await call(before, browser, "account:login", { name: "ada" });
    const store = sessionsOf(before).store;

    const after = await reloadKeeping(() => before.stop(), () => createServer(env, { logDestination: stream }).start(), (error) => {
      throw error;
    });
    expect(sessionsOf(after).store).toBe(store);
    expect((store as MemorySessionStore).size).toBe(1);
    expect(await call(after, browser, "account:whoami")).toMatchObject({ response: { user: "ada" } });
    expect(lines.filter((line) => line.msg.startsWith("SESSION_SECRET is not set"))).toHaveLength(1);

    // Its last stop, outside a reload, closes the store as always.
    await after.stop();
    expect((store as MemorySessionStore).size).toBe(0);
    expect(reclaimKept("herald:sessions")).toBeUndefined();
  });

  test("with SESSION_SECRET and Redis nothing needs keeping: a reload keeps nothing", async () => {
    const before = await createServer({ REDIS_URL: TEST_REDIS_URL, SESSION_REDIS_PREFIX: `${prefix}reload:` }).start();
    const after = await reloadKeeping(() => before.stop(), () => createServer({ REDIS_URL: TEST_REDIS_URL, SESSION_REDIS_PREFIX: `${prefix}reload:` }).start(), (error) => {
      throw error;
    });
    expect(sessionsOf(after).store).toBeInstanceOf(RedisSessionStore);
    expect(sessionsOf(after).store).not.toBe(sessionsOf(before).store);
  });
});

describe("as a built-in", () => {
  test("every Herald server has it", async () => {
    const server = await startTestServer({ appDir, env: { SESSION_SECRET: secret }, logDestination: jsonLogs().stream });
    servers.push(server);
    expect(server.initializers.map((initializer) => initializer.name)).toContain("sessions");
    expect(server.container.resolve(SessionManager)).toBeInstanceOf(SessionManager);
  });
});
