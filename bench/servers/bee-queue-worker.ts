import BeeQueue from "bee-queue";
import { jobInputs, TASK_QUEUE } from "../shared/job";
import { countRequest } from "../shared/request-counter";

/**
 * The raw bee-queue baseline: a worker on the bench queue with the same trivial handler (the
 * same zod parse) and the queue options Herald's driver uses (no events, no job store).
 */
const queue = new BeeQueue<{ n: number }>(TASK_QUEUE, {
  prefix: process.env.BEE_QUEUE_PREFIX!,
  redis: { url: process.env.REDIS_URL! },
  isWorker: true,
  getEvents: false,
  sendEvents: false,
  storeJobs: false,
  removeOnSuccess: true,
  removeOnFailure: false,
});

queue.process(Number(process.env.CONCURRENCY ?? 10), async (job) => {
  // As Herald's global middleware counts each job it runs.
  countRequest();
  const params = jobInputs.parse(job.data);
  return { n: params.n };
});

process.once("SIGTERM", () => {
  void queue.close(1000).finally(() => process.exit(0));
});
