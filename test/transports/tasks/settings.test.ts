import { ErrorType, loadConfig } from "herald";
import { queueConcurrency, readTasksSettings } from "../../../src/transports/tasks/settings";

test("defaults: in-process without REDIS_URL, Redis with it, keys prefixed by the app name", () => {
  expect(readTasksSettings(loadConfig({ NAME: "shop" }))).toMatchObject({
    driver: "memory",
    prefix: "shop:tasks",
    concurrency: 5,
    retries: 2,
    backoffMs: 1000,
    stallIntervalMs: 5000,
    stopTimeoutMs: 10_000,
    resultTtlMs: 86_400_000,
    fanOutBatch: 100,
  });
  expect(readTasksSettings(loadConfig({ REDIS_URL: "redis://127.0.0.1:6379" })).driver).toBe("redis");
  expect(readTasksSettings(loadConfig({ REDIS_URL: "redis://127.0.0.1:6379", TASKS_DRIVER: "memory" })).driver).toBe("memory");
});

test("TASKS_QUEUES lists the queues this process works", () => {
  expect(readTasksSettings(loadConfig({ TASKS_QUEUES: "reports, mail-out ,," })).queues).toEqual(["reports", "mail-out"]);
});

test("TASKS_CONCURRENCY_<QUEUE> overrides the concurrency of one queue", () => {
  const config = loadConfig({ TASKS_CONCURRENCY: "3", TASKS_CONCURRENCY_MAIL_OUT: "8" });
  const settings = readTasksSettings(config);
  expect(queueConcurrency("mail-out", settings, config)).toBe(8);
  expect(queueConcurrency("reports", settings, config)).toBe(3);
});

test("a bad value fails fast, naming the variable", () => {
  expect(() => readTasksSettings(loadConfig({ TASKS_CONCURRENCY: "0" }))).toThrow(
    expect.objectContaining({ type: ErrorType.CONFIG_ERROR, key: "TASKS_CONCURRENCY" }),
  );
  expect(() => readTasksSettings(loadConfig({ TASKS_DRIVER: "redis" }))).toThrow(
    expect.objectContaining({ type: ErrorType.CONFIG_ERROR, key: "REDIS_URL" }),
  );
});
