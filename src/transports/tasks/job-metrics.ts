import type { Attributes, Counter, Histogram, Meter } from "@opentelemetry/api";
import { ATTR_ERROR_TYPE, ERROR_TYPE_VALUE_OTHER } from "@opentelemetry/semantic-conventions";
import {
  ATTR_MESSAGING_DESTINATION_NAME,
  ATTR_MESSAGING_OPERATION_NAME,
  ATTR_MESSAGING_SYSTEM,
  METRIC_MESSAGING_PROCESS_DURATION,
} from "@opentelemetry/semantic-conventions/incubating";
import { DURATION_BUCKETS } from "../../core/metrics";
import type { JobHandler, QueueDriver, QueueStats } from "./driver";
import { JobFailure } from "./job-failure";

/** Attempts that were retries of a failed one, by queue: the messaging conventions count none. */
export const METRIC_JOB_RETRIES = "herald.job.retries";
/** Jobs in each queue by state (waiting, active, delayed, failed), read from the driver at collection time. */
export const METRIC_QUEUE_JOBS = "herald.queue.jobs";
export const ATTR_JOB_STATE = "herald.job.state";
/** `messaging.system` of Herald's queues, whichever driver holds them. */
const MESSAGING_SYSTEM = "herald";
const STATES: readonly (keyof QueueStats)[] = ["waiting", "active", "delayed", "failed"];

/**
 * Each job's processing time (`messaging.process.duration`, with `error.type` when the attempt
 * failed) and its retries, by queue. Attributes are made once per queue and outcome.
 */
export function measuredJobs(meter: Meter, handler: JobHandler): JobHandler {
  const duration: Histogram = meter.createHistogram(METRIC_MESSAGING_PROCESS_DURATION, {
    unit: "s",
    description: "Duration of a job's processing, by queue",
    advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
  });
  const retries: Counter = meter.createCounter(METRIC_JOB_RETRIES, { unit: "{retry}", description: "Attempts that retried a failed job, by queue" });
  const cache = new Map<string, Attributes>();
  const attributesOf = (queue: string, errorType: string | undefined): Attributes => {
    const key = errorType === undefined ? queue : `${queue}\n${errorType}`;
    let attributes = cache.get(key);
    if (!attributes) {
      attributes = {
        [ATTR_MESSAGING_SYSTEM]: MESSAGING_SYSTEM,
        [ATTR_MESSAGING_OPERATION_NAME]: "process",
        [ATTR_MESSAGING_DESTINATION_NAME]: queue,
        ...(errorType === undefined ? {} : { [ATTR_ERROR_TYPE]: errorType }),
      };
      cache.set(key, attributes);
    }
    return attributes;
  };
  return async (job) => {
    if (job.attempt > 1) retries.add(1, attributesOf(job.queue, undefined));
    const started = performance.now();
    let errorType: string | undefined;
    try {
      return await handler(job);
    } catch (error) {
      errorType = error instanceof JobFailure ? error.body.type : ERROR_TYPE_VALUE_OTHER;
      throw error;
    } finally {
      duration.record((performance.now() - started) / 1000, attributesOf(job.queue, errorType));
    }
  };
}

/** The depth of each queue, by state, asked of the driver when metrics are collected; a queue it cannot read is left out. */
export function observeQueueDepth(meter: Meter, queues: readonly string[], driver: () => Promise<QueueDriver>): void {
  const attributes = new Map(queues.map((queue) => [queue, STATES.map((state) => ({ [ATTR_MESSAGING_DESTINATION_NAME]: queue, [ATTR_JOB_STATE]: state }))]));
  meter
    .createObservableGauge(METRIC_QUEUE_JOBS, { unit: "{job}", description: "Jobs in each queue, by state" })
    .addCallback(async (result) => {
      const backend = await driver();
      await Promise.all(
        queues.map(async (queue) => {
          const stats = await backend.stats(queue).catch(() => undefined);
          if (!stats) return;
          STATES.forEach((state, index) => result.observe(stats[state], attributes.get(queue)![index]));
        }),
      );
    });
}
