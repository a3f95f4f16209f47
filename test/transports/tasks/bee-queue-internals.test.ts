import BeeQueue from "bee-queue";
import { beeQueueScripts, queueCommandClient, queueScriptEvaluator } from "../../../src/transports/tasks/bee-queue-internals";
import { TEST_REDIS_URL, useTestRedis } from "../../support/redis";

/**
 * What Herald reads of bee-queue's internals, against the bee-queue installed: when a release
 * moves them, these fail before a task queue does.
 */
const { prefix, redis } = useTestRedis("bee-queue-internals");
let queue: BeeQueue<unknown>;

beforeAll(async () => {
  queue = new BeeQueue("internals", { prefix: prefix.slice(0, -1), redis: { url: TEST_REDIS_URL }, isWorker: false });
  await queue.ready();
});
afterAll(() => queue.close());

test("Queue#client is bee-queue's node_redis connection: Herald's commands sent on it reach Redis", async () => {
  const client = queueCommandClient(queue);
  for (const command of ["eval", "set", "pexpire"] as const) expect(typeof client[command]).toBe("function");
  await new Promise<void>((resolve, reject) => client.set(`${prefix}probe`, "sent on bee-queue's connection", "PX", 60_000, (error) => (error ? reject(error) : resolve())));
  expect(await redis.get(`${prefix}probe`)).toBe("sent on bee-queue's connection");
});

test("Queue#_evalScriptOn runs every script of the queue: a replacement is what the queue then calls", async () => {
  const evaluator = queueScriptEvaluator(queue)!;
  expect(evaluator).toBeDefined();
  const names: unknown[] = [];
  evaluator.replace((commandable, args) => {
    names.push(args[0]);
    return evaluator.evaluate(commandable, args);
  });
  const job = await queue.createJob({ probe: true }).save();
  expect(names).toContain("addJob");
  expect(await queue.getJob(job.id)).toMatchObject({ data: { probe: true } });
});

test("lib/lua holds bee-queue's scripts by name, read at the first connection", () => {
  const scripts = beeQueueScripts()!;
  for (const name of ["addJob", "addDelayedJob", "checkStalledJobs", "raiseDelayedJobs", "removeJob"]) {
    expect(scripts[name]).toEqual(expect.stringContaining("redis.call"));
  }
});
