import { BeeQueueDriver } from "../../../src/transports/tasks/bee-queue-driver";
import { describeDriverContract } from "./driver-contract";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";

const prefix = uniquePrefix("bee-queue-driver");

afterAll(() => deleteKeys(prefix));

describeDriverContract(
  "bee-queue",
  () => new BeeQueueDriver({ redisUrl: REDIS_URL, prefix, resultTtlMs: 60_000, stallIntervalMs: 300 }),
);
