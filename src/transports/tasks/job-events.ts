import { isTypedError } from "../../core/errors";
import type { PubSubDriver } from "../../channels/pubsub-driver";
import type { FanOutProgress, JobError, JobHandler, JobProgress, JobStatus, RunningJob } from "./driver";
import { asJobFailure } from "./job-failure";

/**
 * What a watcher of a job receives (the `tasks:watch` action yields them): first the job as it
 * stands, then each progress report and failed attempt that will be retried, and last its outcome,
 * `completed` or `failed`. A fan-out's watcher gets its counts each time a child ends, and then
 * `completed` with the whole progress, results and errors included.
 */
export type JobWatchEvent =
  | { type: "status"; status: Exclude<JobStatus, "succeeded" | "failed">; attempts: number; progress?: JobProgress }
  | ({ type: "progress" } & JobProgress)
  | { type: "retrying"; attempt: number; error: JobError }
  | { type: "completed"; result: unknown }
  | { type: "failed"; error: JobError }
  | ({ type: "fanOut" } & FanOutCounts);

export type FanOutCounts = Pick<FanOutProgress, "total" | "succeeded" | "failed" | "pending" | "complete">;

/** What a job's channel carries: the events a job publishes itself. */
export type PublishedJobEvent = Extract<JobWatchEvent, { type: "progress" | "retrying" | "completed" | "failed" }>;

/** What a watched job publishes: its own events, or, as a child of a fan-out, that it ended. */
export type WatchMessage = PublishedJobEvent | { type: "child" };

/** The event of a watch's end. */
export function isFinalEvent(event: JobWatchEvent): boolean {
  return event.type === "completed" || event.type === "failed";
}

/**
 * The pub/sub channels of watched jobs and fan-outs. A `#` is outside CHANNEL_NAME_PATTERN, so no
 * WebSocket client can subscribe to one as to an app's channel: only `tasks:watch` reads them.
 */
export function jobChannel(prefix: string, queue: string, jobId: string): string {
  return `tasks#job ${JSON.stringify([prefix, queue, jobId])}`;
}

export function fanOutChannel(prefix: string, fanOutId: string): string {
  return `tasks#fanout ${JSON.stringify([prefix, fanOutId])}`;
}

/** Whether the attempt ends without an outcome, however it settled: a stopping worker cut it off, and another runs it again. */
function wasCutOff(job: RunningJob): boolean {
  // The dispatcher aborts with a TypedError (a timeout), as does a cancel (client gone): those end the attempt.
  return job.controller.signal.aborted && !isTypedError(job.controller.signal.reason);
}

export interface JobEventsOptions {
  pubsub: PubSubDriver;
  /** TASKS_PREFIX, which names the job's channel with its queue and id. */
  prefix: string;
  onError: (error: unknown, job: RunningJob) => void;
}

/**
 * Publishes what a watched job does (one queued with `watch`, marked in its payload) on its
 * channel: its progress once kept, each failed attempt, and its outcome. A job no one can watch
 * goes straight to `handler`, without a publish. An outcome is published on a later turn, once
 * the driver has recorded it (its write is under way on the driver's connection by then), so that
 * a watcher that reads the job on subscribing finds either the outcome or the event.
 */
export function publishingJobEvents(handler: JobHandler, options: JobEventsOptions): JobHandler {
  return (job) => {
    const watch = job.payload.watch;
    if (!watch) return handler(job);
    const channel = job.payload.fanOut ? fanOutChannel(options.prefix, job.payload.fanOut.id) : jobChannel(options.prefix, job.queue, job.id);
    const publish = (event: WatchMessage) => {
      options.pubsub.publish(channel, JSON.stringify(event)).catch((error: unknown) => options.onError(error, job));
    };
    const later = (event: WatchMessage) => void setImmediate(() => publish(event));
    // A child of a fan-out tells its fan-out's watchers when it ends, whose counts they read again.
    const child = job.payload.fanOut !== undefined;
    const watched: RunningJob = child
      ? job
      : {
          ...job,
          reportProgress: async (progress) => {
            await job.reportProgress(progress);
            publish({ type: "progress", ...progress });
          },
        };
    return handler(watched).then(
      (result) => {
        if (!wasCutOff(job)) later(child ? { type: "child" } : { type: "completed", result });
        return result;
      },
      (thrown: unknown) => {
        if (!wasCutOff(job)) {
          const failure = asJobFailure(thrown);
          const retrying = failure.retryable && job.attempt <= watch.retries;
          if (child) {
            if (!retrying) later({ type: "child" });
          } else {
            later(retrying ? { type: "retrying", attempt: job.attempt, error: failure.body } : { type: "failed", error: failure.body });
          }
        }
        throw thrown;
      },
    );
  };
}
