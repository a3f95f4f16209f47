import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { ErrorType } from "herald";
import { waitFor } from "herald/testing";
import { BeeQueueDriver } from "../../../src/transports/tasks/bee-queue-driver";
import { describeDriverContract } from "./driver-contract";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";
import { TcpProxy } from "../../support/tcp-proxy";

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

describe("the completed count, added to Redis by each worker's process in batches", () => {
  const countPrefix = uniquePrefix("bee-queue-completed");
  const noRetry = { retries: 0, backoff: { strategy: "fixed" as const, delayMs: 0 } };
  let worker: BeeQueueDriver;
  let reader: BeeQueueDriver;

  beforeEach(() => {
    worker = new BeeQueueDriver({ redisUrl: REDIS_URL, prefix: countPrefix, resultTtlMs: 60_000, stallIntervalMs: 300 });
    reader = new BeeQueueDriver({ redisUrl: REDIS_URL, prefix: countPrefix, resultTtlMs: 60_000, stallIntervalMs: 300 });
  });

  afterEach(async () => {
    await Promise.all([worker.close(), reader.close()]);
  });

  afterAll(() => deleteKeys(countPrefix));

  const runJobs = async (queue: string, count: number) => {
    const ids = await worker.enqueue(queue, Array.from({ length: count }, () => ({ payload: { action: "test:run", params: {} }, ...noRetry })));
    await waitFor(async () => (await Promise.all(ids.map((id) => worker.getJob(queue, id)))).every((job) => job?.status === "succeeded"));
  };

  test("another process reads what a worker counted without anything asking the worker", async () => {
    const queue = `count-${randomUUID().slice(0, 8)}`;
    await worker.process(queue, 4, async () => ({ done: true }));
    await runJobs(queue, 5);
    await waitFor(async () => (await reader.stats(queue)).completed === 5);
  });

  test("the worker's own process reads its count at once, and stopping the workers adds it for the others", async () => {
    const queue = `count-${randomUUID().slice(0, 8)}`;
    await worker.process(queue, 4, async () => ({ done: true }));
    await runJobs(queue, 3);
    expect((await worker.stats(queue)).completed).toBe(3);
    await runJobs(queue, 2);
    await worker.stopWorkers(1000);
    expect((await reader.stats(queue)).completed).toBe(5);
  });
});

describe("the bee-queue driver while Redis is unreachable", () => {
  const unavailable = { type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE, message: expect.stringMatching(/^The task queue cannot reach Redis: /) };
  const lostPrefix = uniquePrefix("bee-queue-lost");
  afterAll(() => deleteKeys(lostPrefix));

  test("with nothing listening, the health ping and every call reject with CONNECTION_SERVICE_UNAVAILABLE", async () => {
    const driver = new BeeQueueDriver({ redisUrl: "redis://127.0.0.1:1", prefix: lostPrefix, resultTtlMs: 60_000, stallIntervalMs: 300 });
    try {
      await expect(driver.ping()).rejects.toMatchObject(unavailable);
      await expect(driver.getJob("lost", "1")).rejects.toMatchObject(unavailable);
      await expect(driver.claim("lost", 1000)).rejects.toMatchObject(unavailable);
    } finally {
      await driver.close();
    }
  }, 3_000);

  test("a lost connection fails its calls at once instead of queueing them, and is back by itself", async () => {
    const proxy = await TcpProxy.start({ host: "127.0.0.1", port: 6379 });
    const driver = new BeeQueueDriver({ redisUrl: `redis://127.0.0.1:${proxy.port}`, prefix: lostPrefix, resultTtlMs: 60_000, stallIntervalMs: 300 });
    try {
      await driver.ping();
      proxy.cut();
      await expect(driver.getJob("lost", "1")).rejects.toMatchObject(unavailable);
      await expect(driver.ping()).rejects.toMatchObject(unavailable);
      proxy.restore();
      await waitFor(() => driver.ping().then(() => true, () => false));
      await expect(driver.getJob("lost", "1")).resolves.toBeUndefined();
    } finally {
      await driver.close();
      await proxy.close();
    }
  }, 5_000);

  const job = { payload: { action: "test:run", params: {} }, retries: 0, backoff: { strategy: "fixed" as const, delayMs: 0 } };

  test.each([
    ["refused", (proxy: TcpProxy) => proxy.refuseNew()],
    ["dropped at its first command", (proxy: TcpProxy) => proxy.hangUpNewOnRequest()],
  ])("a queue whose first connection was %s while the driver's own was up connects again on the next call", async (_, fail) => {
    const proxy = await TcpProxy.start({ host: "127.0.0.1", port: 6379 });
    const driver = new BeeQueueDriver({ redisUrl: `redis://127.0.0.1:${proxy.port}`, prefix: lostPrefix, resultTtlMs: 60_000, stallIntervalMs: 300 });
    try {
      await driver.ping();
      fail(proxy);
      await expect(driver.enqueue("refused-first", [job])).rejects.toMatchObject(unavailable);
      proxy.restore();
      await expect(driver.enqueue("refused-first", [job])).resolves.toHaveLength(1);
    } finally {
      await driver.close();
      await proxy.close();
    }
  }, 15_000);
});

describe("aborting a job another process runs", () => {
  const sharedPrefix = uniquePrefix("bee-queue-abort");
  const drivers: BeeQueueDriver[] = [];
  const driverOn = () => {
    const driver = new BeeQueueDriver({ redisUrl: REDIS_URL, prefix: sharedPrefix, resultTtlMs: 60_000, stallIntervalMs: 300 });
    drivers.push(driver);
    return driver;
  };

  afterAll(async () => {
    await Promise.all(drivers.map((driver) => driver.close()));
    await deleteKeys(sharedPrefix);
  });

  test("abortEverywhere reaches the worker that holds the job, as its caller's leaving", async () => {
    const queue = `abort-${randomUUID().slice(0, 8)}`;
    const [worker, other] = [driverOn(), driverOn()];
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let seenReason: unknown;
    await worker.process(queue, 1, (job) => {
      started();
      return new Promise((_resolve, reject) =>
        job.controller.signal.addEventListener("abort", () => {
          seenReason = job.controller.signal.reason;
          reject(new Error("stopped"));
        }),
      );
    });
    const [id] = await other.enqueue(queue, [{ payload: { action: "test:run", params: {} }, retries: 0, backoff: { strategy: "fixed", delayMs: 0 } }]);
    await running;
    expect(other.abort(queue, id!, new Error("not here"))).toBe(false);
    await other.abortEverywhere(queue, id!, "The task was cancelled");
    await waitFor(() => seenReason !== undefined);
    expect(seenReason).toMatchObject({ type: ErrorType.CONNECTION_CLIENT_GONE, message: "The task was cancelled" });
  });
});
