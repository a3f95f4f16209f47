import { join } from "node:path";
import { HeraldServer, TaskService } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { gaugeValue, histogramCount, scrape } from "../../support/prometheus";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";
import { freePort } from "../../support/free-port";

/**
 * The job metrics of a `--workers-only` process, read from its own /metrics port: each attempt's
 * duration by queue and outcome, and each retry.
 */
const appDir = join(__dirname, "../../fixtures/apps/tasks-basic");

// The fixture's ledger counts attempts in Redis: under a prefix of this run's own, so every run starts from none.
const prefix = uniquePrefix("job-metrics");
let server: HeraldServer;
let metricsUrl: string;

beforeAll(async () => {
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}`;
  server = await startTestServer({
    appDir,
    runMode: "workers",
    env: { TASKS_DRIVER: "memory", REDIS_URL, TASKS_PREFIX: prefix, HOST: "127.0.0.1", METRICS_PORT: String(port), LOG_LEVEL: "fatal" },
  });
}, HOOK_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  await deleteKeys(prefix);
}, HOOK_TIMEOUT);

test("a job that fails twice, then succeeds, counts two retries and three attempts by outcome", async () => {
  const tasks = server.container.resolve(TaskService);
  const jobId = await tasks.enqueue("jobs:flaky", { label: "metered", failures: 2 }, { retries: 3, backoff: { strategy: "fixed", delayMs: 10 } });
  await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "succeeded");

  const scraped = await scrape(metricsUrl);
  const queue = { messaging_destination_name: "work" };
  expect(gaugeValue(scraped, "herald_job_retries_total", queue)).toBe(2);
  expect(histogramCount(scraped, "messaging_process_duration", { ...queue, error_type: "CONNECTION_ACTION_RUN" })).toBe(2);
  expect(histogramCount(scraped, "messaging_process_duration", { ...queue, error_type: undefined })).toBe(1);
});
