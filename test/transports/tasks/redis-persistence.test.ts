import { join } from "node:path";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { OwnRedis } from "../../reliability/support/own-redis";
import { jsonLogs, type LogLine } from "../../support/json-logs";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";

/**
 * The boot-time note on the persistence of the queue's Redis. The shared Redis of the test
 * machines runs without any (`--save "" --appendonly no`); one with an append-only file, and one
 * whose CONFIG command is disabled, are redis-servers of this file alone, so the shared one's
 * settings are never changed.
 */
const appDir = join(__dirname, "../../fixtures/apps/tasks-basic");
const prefix = uniquePrefix("redis-persistence");
const PERSISTENCE_LINE = /^task queue: Redis (keeps no data|does not say)/;

afterAll(() => deleteKeys(prefix), HOOK_TIMEOUT);

/** Boots and stops a worker process on `redisUrl` and returns its JSON log lines. */
async function bootLines(redisUrl: string): Promise<LogLine[]> {
  const { stream, lines } = jsonLogs();
  const server = await startTestServer({
    appDir,
    runMode: "workers",
    env: { REDIS_URL: redisUrl, TASKS_DRIVER: "redis", TASKS_PREFIX: prefix, LOG_FORMAT: "json", LOG_LEVEL: "info" },
    logDestination: stream,
  });
  await server.stop();
  await waitFor(() => lines.some((line) => line.msg === "server stopped"));
  return lines.filter((line) => PERSISTENCE_LINE.test(line.msg));
}

test("a worker process on a Redis without persistence warns once at boot, naming the settings to change", async () => {
  const lines = await bootLines(REDIS_URL);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: 40, appendonly: "no", save: "" });
  expect(lines[0]!.msg).toMatch(/appendonly yes/);
  expect(lines[0]!.msg).toMatch(/save/);
}, HOOK_TIMEOUT);

describe("on a Redis of its own", () => {
  const servers: OwnRedis[] = [];
  afterAll(async () => {
    for (const redis of servers) await redis.destroy();
  }, HOOK_TIMEOUT);

  test("a Redis with an append-only file gets no warning", async () => {
    const redis = await OwnRedis.start();
    servers.push(redis);
    expect(await bootLines(redis.url)).toEqual([]);
  }, HOOK_TIMEOUT);

  test("a Redis whose CONFIG command is disabled gets a softer note, at info, when INFO does not show an append-only file", async () => {
    const redis = await OwnRedis.start(["--appendonly", "no", "--rename-command", "CONFIG", ""]);
    servers.push(redis);
    const lines = await bootLines(redis.url);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30 });
    expect(lines[0]!.msg).toMatch(/CONFIG is disabled/);
  }, HOOK_TIMEOUT);

  test("a Redis whose CONFIG command is disabled but that shows an append-only file in INFO gets no note", async () => {
    const redis = await OwnRedis.start(["--rename-command", "CONFIG", ""]);
    servers.push(redis);
    expect(await bootLines(redis.url)).toEqual([]);
  }, HOOK_TIMEOUT);
});
