import { CONNECTION_TYPE } from "../../core/constants";
import { Connection } from "../../core/connection";
import type { TypedError } from "../../core/errors";
import { isUnencodableResponse } from "../../core/response-encoder";
import type { HeraldServer } from "../../core/server";
import type { JobHandler, RunningJob } from "./driver";
import { processingJob } from "./job-spans";
import { JobFailure } from "./job-failure";

/** What an action run by a worker finds in `connection.state.task`. */
export interface TaskJobState {
  queue: string;
  jobId: string;
  attempt: number;
  fanOut?: { id: string; index: number };
  /** For a recurring task: the period it runs for, counted as floor(Unix ms / frequency). */
  period?: number;
  /** For a cron task: the tick it runs for, in Unix ms (the time its expression named, not when it started). */
  tick?: number;
}

/**
 * Client errors (bad params, not found, forbidden …) would fail the same way again; a rate limit
 * and server-side errors (a timeout among them) may not. A response JSON cannot carry is not
 * retried either (see isUnencodableResponse).
 */
export function isRetryable(error: TypedError): boolean {
  return error.status >= 500 || error.status === 429;
}

/** Runs each job through the one pipeline, on a `task` connection; an error fails the attempt. */
export function jobRunner(server: HeraldServer, messagingSystem: string): JobHandler {
  return (job) => processingJob(job, messagingSystem, () => runJob(server, job));
}

/** One attempt of a job: the call's answer is its result, its error the attempt's failure. */
async function runJob(server: HeraldServer, job: RunningJob): Promise<unknown> {
  const connection = new Connection({ type: CONNECTION_TYPE.task, id: job.id, progressReporter: (progress) => job.reportProgress(progress) });
  const state: TaskJobState = {
    queue: job.queue,
    jobId: job.id,
    attempt: job.attempt,
    ...(job.payload.fanOut ? { fanOut: job.payload.fanOut } : {}),
    ...(job.payload.period !== undefined ? { period: job.payload.period } : {}),
    ...(job.payload.tick !== undefined ? { tick: job.payload.tick } : {}),
  };
  connection.state.task = state;
  const { answer } = await server.dispatcher.run(job.payload.action, job.payload.params, connection, {
    controller: job.controller,
    logFields: { jobId: job.id, queue: job.queue },
  });
  if (answer.kind === "json") return JSON.parse(answer.text) as unknown;
  if (answer.kind === "error") throw new JobFailure(answer.body.error, isRetryable(answer.error) && !isUnencodableResponse(answer.error));
  // A worker frames nothing and tasks do not stream (task-workers-initializer.ts refuses them at boot).
  throw new Error(`${job.payload.action}: a ${answer.kind} answer cannot be a job's result`);
}
