import { join } from "node:path";
import { serverUrl, useTestServer } from "herald/testing";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { useInMemoryTracing } from "./support/in-memory-tracing";
import { getUserOf, taskTraces } from "./support/task-traces";

/** The trace context stored with a job crosses Redis: bee-queue's jobs keep it through retries and fan-out. */
const appDir = join(__dirname, "../fixtures/apps/traced");
const exporter = useInMemoryTracing();
const { prefix } = useTestRedis("traces-bee-queue");
useTestServer({ appDir, env: { REDIS_URL: TEST_REDIS_URL, TASKS_PREFIX: prefix, LOG_LEVEL: "fatal" } });
beforeEach(() => exporter.reset());

describe("tasks (bee-queue on Redis)", () => taskTraces(exporter, "bee-queue", getUserOf(serverUrl)));
