import { askedQuestions, type JobInput } from "../../core/asked-questions";
import type { CallerInput } from "../../core/caller-input";
import { CONNECTION_TYPE } from "../../core/constants";
import { isInputRequired } from "../../core/input-required";
import { kindOf, type QuestionKind, type Questions, type RawAnswer } from "../../core/questions";
import { Connection } from "../../core/connection";
import type { TypedError } from "../../core/errors";
import { isUnencodableResponse } from "../../core/response-encoder";
import type { HeraldServer } from "../../core/server";
import type { Session } from "../../sessions/session";
import { SessionManager } from "../../sessions/session-manager";
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

/** An answer, if it is one of the kind the question needs. */
function answerOfKind(answer: RawAnswer | undefined, kind: QuestionKind): RawAnswer | undefined {
  if (!answer) return undefined;
  const fits = kind === "form" ? "action" in answer : kind === "sample" ? "role" in answer : "roots" in answer;
  return fits ? answer : undefined;
}

/** Whether every question is of a kind the job's caller can answer. */
function asksOnly(questions: Questions, kinds: readonly QuestionKind[]): boolean {
  return Object.values(questions).every((question) => kinds.includes(kindOf(question)));
}

/** A job's caller as `connection.ask` reads it: answers brought by the job, questions of the kinds it can answer. */
function jobCallerInput(input: JobInput): CallerInput {
  return {
    retries: true,
    canAnswer: (kind) => input.kinds.includes(kind),
    answerOf: (key, question) => answerOfKind(input.answers[key], kindOf(question)),
  };
}

/** Runs each job through the one pipeline, on a `task` connection; an error fails the attempt. */
export function jobRunner(server: HeraldServer, messagingSystem: string): JobHandler {
  return (job) => processingJob(job, messagingSystem, () => runJob(server, job));
}

/**
 * The session of the caller a job runs for, opened again from the store: one that ended since
 * (a sign-out, its TTL) leaves the job's caller anonymous. None where the app has no sessions.
 */
function callerSession(server: HeraldServer, sessionId: string): Promise<Session> | undefined {
  if (!server.container.isRegistered(SessionManager, true)) return undefined;
  return server.container.resolve(SessionManager).open(sessionId);
}

/** One attempt of a job: the call's answer is its result, its error the attempt's failure. */
async function runJob(server: HeraldServer, job: RunningJob): Promise<unknown> {
  const { input, caller } = job.payload;
  const session = caller?.sessionId === undefined ? undefined : await callerSession(server, caller.sessionId);
  const connection = new Connection({
    type: CONNECTION_TYPE.task,
    id: job.id,
    progressReporter: (progress) => job.reportProgress(progress),
    ...(input ? { callerInput: jobCallerInput(input) } : {}),
    ...(caller?.auth ? { auth: caller.auth } : {}),
    ...(session ? { session } : {}),
  });
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
  // Questions a job's caller can answer end it waiting for them: they leave with the job, as JSON.
  if (answer.kind === "error" && isInputRequired(answer.error) && answer.error.askable && input && asksOnly(answer.error.questions, input.kinds)) {
    const { questions, answered } = answer.error;
    throw new JobFailure({ ...answer.body.error, value: { keys: Object.keys(questions), questions: askedQuestions(questions), answered } }, false);
  }
  if (answer.kind === "error") throw new JobFailure(answer.body.error, isRetryable(answer.error) && !isUnencodableResponse(answer.error));
  // A worker frames nothing and tasks do not stream (task-workers-initializer.ts refuses them at boot).
  throw new Error(`${job.payload.action}: a ${answer.kind} answer cannot be a job's result`);
}
