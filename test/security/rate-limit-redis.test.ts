import { join } from "node:path";
import { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer } from "herald/testing";
import { call } from "../reliability/support/http";
import { OwnRedis } from "../reliability/support/own-redis";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "../reliability/support/shared-redis";

/** rateLimit() with REDIS_URL: one budget across processes, and a per-process fallback while Redis is away. */
const appDir = join(__dirname, "fixtures/rate-limit-app");
const servers: HeraldServer[] = [];

async function start(env: NodeJS.ProcessEnv): Promise<HeraldServer> {
  const server = await startTestServer({ appDir, env: { LOG_LEVEL: "fatal", ...env } });
  servers.push(server);
  return server;
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
}, HOOK_TIMEOUT);

describe("two processes on one Redis", () => {
  const name = uniqueAppName("rate-limit");
  afterAll(() => deleteAppKeys(name), HOOK_TIMEOUT);

  test("share each budget: the calls of both count together", async () => {
    const [first, second] = [await start({ REDIS_URL: SHARED_REDIS_URL, NAME: name }), await start({ REDIS_URL: SHARED_REDIS_URL, NAME: name })];
    const answers = [];
    for (const server of [first, second, first, second]) answers.push(await call(`${server!.url}/api/limited/ip`));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((answer) => answer.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
  });
});

describe("two processes on one Redis, counting failures", () => {
  const name = uniqueAppName("rate-limit-failures");
  afterAll(() => deleteAppKeys(name), HOOK_TIMEOUT);

  test("take successes back and forget failures on a success, whichever process answers", async () => {
    const [first, second] = [await start({ REDIS_URL: SHARED_REDIS_URL, NAME: name }), await start({ REDIS_URL: SHARED_REDIS_URL, NAME: name })];
    const statuses = [];
    for (const [server, ok] of [[first, "no"], [second, "yes"], [first, "no"], [second, "no"], [first, "yes"]] as const) {
      statuses.push((await call(`${server!.url}/api/limited/failures-reset?budget=shared&ok=${ok}`)).status);
    }
    expect(statuses).toEqual([401, 200, 401, 401, 429]);
  });
});

describe("while Redis is away", () => {
  let redis: OwnRedis;
  beforeAll(async () => {
    redis = await OwnRedis.start();
  }, HOOK_TIMEOUT);
  afterAll(() => redis?.destroy(), HOOK_TIMEOUT);

  test("each process still limits, on its own count, and answers no call with 503", async () => {
    const server = await start({ REDIS_URL: redis.url, NAME: uniqueAppName("rate-limit-fallback") });
    expect((await call(`${server.url}/api/limited/shared-a`)).status).toBe(200);

    await redis.crash();
    const during = [];
    for (let index = 0; index < 3; index += 1) during.push(await call(`${server.url}/api/limited/shared-a`));
    expect(during.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(during[2]!.headers.get("retry-after")).not.toBeNull();
    // Back before the server stops, so its clients close at once rather than mid-reconnection.
    await redis.resume();
  });
});
