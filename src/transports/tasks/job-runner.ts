import { CONNECTION_TYPE } from "../../core/constants";
import { Connection } from "../../core/connection";
import { errorBody } from "../../core/error-body";
import type { TypedError } from "../../core/errors";
import { toJsonValue } from "../../core/response-encoder";
import type { HeraldServer } from "../../core/server";
import type { JobHandler } from "./driver";
import { JobFailure } from "./job-failure";

/** What an action run by a worker finds in `connection.state.task`. */
export interface TaskJobState {
  queue: string;
  jobId: string;
  attempt: number;
  fanOut?: { id: string; index: number };
  /** For a recurring task: the period it runs for, counted as floor(Unix ms / frequency). */
  period?: number;
}

/**
 * Client errors (bad params, not found, forbidden …) would fail the same way again; a rate limit
 * and server-side errors (a timeout among them) may not.
 */
export function isRetryable(error: TypedError): boolean {
  return error.status >= 500 || error.status === 429;
}

/** Runs each job through the one pipeline, on a `task` connection; an error fails the attempt. */
export function jobRunner(server: HeraldServer): JobHandler {
  return async (job) => {
    const connection = new Connection({ type: CONNECTION_TYPE.task, id: job.id });
    const state: TaskJobState = {
      queue: job.queue,
      jobId: job.id,
      attempt: job.attempt,
      ...(job.payload.fanOut ? { fanOut: job.payload.fanOut } : {}),
      ...(job.payload.period !== undefined ? { period: job.payload.period } : {}),
    };
    connection.state.task = state;
    const result = await server.dispatcher.run(job.payload.action, job.payload.params, connection, { controller: job.controller });
    if (result.error) throw new JobFailure(errorBody(result.error, server.config.production).error, isRetryable(result.error));
    try {
      return toJsonValue(result.actionName, result.response);
    } catch (thrown) {
      // The run is done, its effects made: another attempt would make them again to fail the same way.
      const error = thrown as TypedError;
      server.logger.error({ err: error.cause ?? error, action: result.actionName }, "task: the result cannot be stored");
      throw new JobFailure(errorBody(error, server.config.production).error, false);
    }
  };
}
