import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { waitFor } from "herald/testing";
import { BeeQueueDriver } from "../../../src/transports/tasks/bee-queue-driver";
import { describeDriverContract } from "./driver-contract";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";

const prefix = uniquePrefix("bee-queue-driver");

afterAll(() => deleteKeys(prefix));

describeDriverContract(
  "bee-queue",
  () => new BeeQueueDriver({ redisUrl: REDIS_URL, prefix, resultTtlMs: 60_000, stallIntervalMs: 300 }),
);

describe("what the bee-queue driver keeps in Redis after a job", () => {
  const keptPrefix = uniquePrefix("bee-queue-records");
  const resultTtlMs = 60_000;
  let driver: BeeQueueDriver;
  let redis: Redis;

  beforeAll(() => {
    driver = new BeeQueueDriver({ redisUrl: REDIS_URL, prefix: keptPrefix, resultTtlMs, stallIntervalMs: 300 });
    redis = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    await driver.close();
    await redis.quit();
    await deleteKeys(keptPrefix);
  });

  const noRetry = { retries: 0, backoff: { strategy: "fixed" as const, delayMs: 0 } };

  test("a succeeded job's record and its id claim expire after the retention time", async () => {
    const queue = `kept-${randomUUID().slice(0, 8)}`;
    await driver.process(queue, 1, async () => ({ done: true }));
    const [id] = await driver.enqueue(queue, [{ payload: { action: "test:run", params: {} }, jobId: "report-1", ...noRetry }]);
    await waitFor(async () => (await driver.getJob(queue, id!))?.status === "succeeded");
    const recordTtl = await redis.pttl(`${keptPrefix}:record:${queue}:${id}`);
    const claimTtl = await redis.pttl(`${keptPrefix}:jobid:${queue}:${id}`);
    expect(recordTtl).toBeGreaterThan(0);
    expect(recordTtl).toBeLessThanOrEqual(resultTtlMs);
    expect(claimTtl).toBeGreaterThan(0);
    expect(claimTtl).toBeLessThanOrEqual(resultTtlMs);
    expect(await driver.getJob(queue, id!)).toMatchObject({ status: "succeeded", result: { done: true }, attempts: 1 });
  });

  test("a job whose id was generated leaves no id claim behind", async () => {
    const queue = `kept-${randomUUID().slice(0, 8)}`;
    await driver.process(queue, 1, async () => ({ done: true }));
    const [id] = await driver.enqueue(queue, [{ payload: { action: "test:run", params: {} }, ...noRetry }]);
    await waitFor(async () => (await driver.getJob(queue, id!))?.status === "succeeded");
    expect(await redis.exists(`${keptPrefix}:jobid:${queue}:${id}`)).toBe(0);
    expect(await redis.pttl(`${keptPrefix}:record:${queue}:${id}`)).toBeGreaterThan(0);
  });

  test("a failed job's record is kept until the job is retried or removed", async () => {
    const queue = `kept-${randomUUID().slice(0, 8)}`;
    await driver.process(queue, 1, async () => {
      throw new Error("always");
    });
    const [id] = await driver.enqueue(queue, [{ payload: { action: "test:run", params: {} }, ...noRetry }]);
    await waitFor(async () => (await driver.getJob(queue, id!))?.status === "failed");
    expect(await redis.pttl(`${keptPrefix}:record:${queue}:${id}`)).toBe(-1);
  });
});
