import { ErrorType } from "herald";
import { waitFor } from "herald/testing";
import { RedisConnection, RedisConnectionOptions } from "../../src/redis/connection";
import { reconnectDelayMs } from "../../src/redis/reconnect";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { TcpProxy } from "../support/tcp-proxy";

const { prefix, redis } = useTestRedis("redis-connection");
const unavailable = { type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE, message: expect.stringMatching(/^The test service cannot reach Redis: /) };
// A short Jest timeout: a connection that waited for Redis instead of failing would hang past it.
const PROMPTLY = 3_000;

const opened: RedisConnection[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((connection) => connection.close()));
});
const proxies: TcpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

function connection(options: Partial<RedisConnectionOptions> = {}): RedisConnection {
  const made = new RedisConnection({ url: TEST_REDIS_URL, service: "the test service", ...options });
  opened.push(made);
  return made;
}

async function throughProxy(options: Partial<RedisConnectionOptions> = {}): Promise<{ proxy: TcpProxy; connection: RedisConnection }> {
  const proxy = await TcpProxy.start({ host: "127.0.0.1", port: 6379 });
  proxies.push(proxy);
  const made = connection({ url: `redis://127.0.0.1:${proxy.port}`, ...options });
  await made.connect();
  return { proxy, connection: made };
}

describe("on a live Redis", () => {
  test("connects, runs commands and pings; after close() commands reject instead of reconnecting", async () => {
    const made = connection();
    await made.connect();
    await made.command((client) => client.set(`${prefix}a`, "1"));
    await expect(made.command((client) => client.get(`${prefix}a`))).resolves.toBe("1");
    await expect(made.ping()).resolves.toBeUndefined();
    await made.close();
    expect(made.client.status).toBe("end");
    await expect(made.ping()).rejects.toMatchObject(unavailable);
    await expect(made.connect()).rejects.toMatchObject(unavailable);
  });

  test("a command before the connection is ready rejects instead of queueing", async () => {
    const made = connection();
    await expect(made.command((client) => client.get(`${prefix}a`))).rejects.toMatchObject(unavailable);
  });

  test("opened() opens at first use, once", async () => {
    const made = connection();
    await made.opened();
    await made.opened();
    await expect(made.ping()).resolves.toBeUndefined();
  });

  test("names itself in CLIENT LIST", async () => {
    const name = `${prefix}named`.replace(/[^A-Za-z0-9:._-]/g, "_");
    await connection({ name }).connect();
    expect(await redis.client("LIST")).toContain(`name=${name}`);
  });
});

describe("while Redis is unreachable", () => {
  test(
    "with nothing listening, connect() and every command reject with CONNECTION_SERVICE_UNAVAILABLE",
    async () => {
      const made = connection({ url: "redis://127.0.0.1:1" });
      await expect(made.connect()).rejects.toMatchObject(unavailable);
      await made.opened();
      await expect(made.ping()).rejects.toMatchObject(unavailable);
      await expect(made.command((client) => client.get(`${prefix}a`))).rejects.toMatchObject(unavailable);
    },
    PROMPTLY,
  );

  test(
    "a lost connection fails commands at once, and is back by itself when Redis is",
    async () => {
      const { proxy, connection: made } = await throughProxy();
      proxy.cut();
      await waitFor(() => made.client.status !== "ready");
      await expect(made.ping()).rejects.toMatchObject(unavailable);
      proxy.restore();
      await waitFor(() => made.ping().then(() => true, () => false));
    },
    PROMPTLY,
  );

  test(
    "a command in flight when the connection drops rejects then, and is not sent again on reconnection",
    async () => {
      // A command timeout beyond the test's: only the drop can end the command in time.
      const { proxy, connection: made } = await throughProxy({ commandTimeoutMs: 60_000 });
      const key = `${prefix}in-flight`;
      proxy.freeze();
      const counting = made.command((client) => client.incr(key));
      proxy.cut();
      await expect(counting).rejects.toMatchObject(unavailable);
      proxy.restore();
      await waitFor(() => made.ping().then(() => true, () => false));
      await expect(made.command((client) => client.get(key))).resolves.toBeNull();
    },
    PROMPTLY,
  );

  test(
    "a command Redis does not answer rejects after the command timeout",
    async () => {
      const { proxy, connection: made } = await throughProxy({ commandTimeoutMs: 200 });
      proxy.freeze();
      await expect(made.ping()).rejects.toMatchObject(unavailable);
    },
    PROMPTLY,
  );
});

test("the reconnection delay doubles from 100 ms and is capped at 2 s, for ever", () => {
  expect([1, 2, 3, 4, 5, 6, 7, 1000].map(reconnectDelayMs)).toEqual([100, 200, 400, 800, 1600, 2000, 2000, 2000]);
});
