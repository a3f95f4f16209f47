import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequests,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { askedKindOf, type AskedQuestion } from "../../core/asked-questions";
import type { QuestionKind, RawAnswer } from "../../core/questions";
import { answerIn } from "./caller-input";
import type { ActionResult } from "../../core/action-result";
import { MCP_RESPONSE_FORMAT } from "../../core/constants";
import { callerScope } from "../../core/caller-scope";
import { jobCallerOf } from "../../core/job-caller";
import type { Connection } from "../../core/connection";
import { typedErrorOf, type ErrorBody } from "../../core/error-body";
import { ErrorStatusCodes, ErrorType } from "../../core/errors";
import type { IdempotencyStore } from "../../core/idempotency-store";
import type { JobOutcome, TaskOperations } from "../../core/ports/task-operations";
import type { ToolEntry } from "./catalog";
import { TaskIds } from "./task-ids";
import { toolResult, type ToolCallContext } from "./results";

/** The extension's identifier (SEP-2663), under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** How often a client is asked to poll `tasks/get`. */
const POLL_INTERVAL_MS = 500;

type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** The client capability each kind of question needs. */
const CAPABILITY_OF: Record<QuestionKind, "elicitation" | "sampling" | "roots"> = { form: "elicitation", sample: "sampling", roots: "roots" };

/**
 * What a task's job asked, as its error body's value carries it (job-runner.ts): the questions
 * still open, and the answers the job had read.
 */
interface AskedValue {
  keys: string[];
  questions: Record<string, AskedQuestion>;
  answered: Record<string, RawAnswer>;
}

/**
 * A task whose job asked: the job that answers for it now (a resumed task's is a new one), and
 * the answers `tasks/update` has brought to its open questions so far.
 */
interface TaskState {
  jobId: string;
  answers: Record<string, RawAnswer>;
}

/** The envelope a task's results share: CreateTaskResult's fields, and DetailedTask's base. */
interface TaskFields {
  taskId: string;
  status: TaskStatus;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
}

/** The capabilities the request declares (2026-07-28 `_meta`), or the session's (a 2025-era handshake). */
function declaredCapabilities(ctx: ServerContext, sessionCapabilities: ClientCapabilities | undefined): ClientCapabilities {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? sessionCapabilities ?? {};
}

/** The kinds of questions a task's job may ask: those whose capability the creating request declared. */
export function askableKinds(ctx: ServerContext, sessionCapabilities: ClientCapabilities | undefined): QuestionKind[] {
  const declared = declaredCapabilities(ctx, sessionCapabilities);
  return (Object.keys(CAPABILITY_OF) as QuestionKind[]).filter((kind) => declared[CAPABILITY_OF[kind]] !== undefined);
}

function askedValueOf(job: JobOutcome | undefined): AskedValue | undefined {
  const value = job?.status === "failed" && job.error?.type === ErrorType.CONNECTION_INPUT_REQUIRED ? (job.error.value as Partial<AskedValue> | undefined) : undefined;
  return value?.questions ? (value as AskedValue) : undefined;
}

/** One asked question as the embedded request the client fulfils, built by the SDK's own helpers. */
function inputRequestOf(question: AskedQuestion): InputRequests[string] {
  if ("form" in question) return inputRequired.elicit({ message: question.form.message, requestedSchema: question.form.schema as never });
  if ("sample" in question) return inputRequired.createMessage(question.sample);
  return inputRequired.listRoots();
}

/** Whether the request (or, for a 2025-era session, its handshake) declared the tasks extension. */
export function declaresTasks(ctx: ServerContext, sessionCapabilities: { extensions?: Record<string, unknown> } | undefined): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return declared?.extensions?.[TASKS_EXTENSION] !== undefined || sessionCapabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** -32021: what the request needs the client to declare. */
export function tasksCapabilityRequired(what: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, `${what} needs the ${TASKS_EXTENSION} extension, which the request did not declare`, {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}

function unknownTask(taskId: unknown): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Unknown task", { taskId });
}

/** A job's error as the tool's answer: a refusal of the tool's own is a completed call that reports an error. */
function errorResultOf(error: ErrorBody["error"]): ActionResult {
  const typed = typedErrorOf(error);
  return { actionName: "", status: typed.status, durationMs: 0, error: typed, answer: { kind: "error", error: typed, body: { error } } };
}

/**
 * MCP's tasks extension (SEP-2663) over Herald's jobs: a tool whose action has `task`, called by a
 * client that declared the extension, is queued as a job and answered with a task; `tasks/get`
 * reads the job, `tasks/cancel` stops it. Task ids are signed references to the job and its
 * caller, so any process on the app's Redis answers for a task another made; a cancellation is
 * kept in the idempotency store, for the same reach. docs/mcp.md, "Tasks".
 */
export class McpTasks {
  private readonly ids: TaskIds;

  constructor(
    private readonly jobs: TaskOperations,
    private readonly marks: IdempotencyStore,
    signingKey: string | undefined,
  ) {
    this.ids = new TaskIds(signingKey);
  }

  /** Queues the tool's call as a job, which may ask questions of `kinds`: the run of the call that creates the task. */
  enqueue(entry: ToolEntry, params: unknown, kinds: QuestionKind[], answers: Readonly<Record<string, RawAnswer>>, connection: Connection): Promise<string> {
    const caller = jobCallerOf(connection);
    return this.jobs.enqueue(entry.registered.name, (params ?? {}) as Record<string, unknown>, { input: { kinds, answers: { ...answers } }, ...(caller ? { caller } : {}) });
  }

  /** The answer to the call that queued the job: the task, or the call's refusal as a tool result. */
  async created(entry: ToolEntry, result: ActionResult, connection: Connection): Promise<Record<string, unknown> | CallToolResult> {
    // Nothing is streamed: no signal is read.
    if (result.error) return toolResult(result, { format: entry.format, signal: AbortSignal.abort() });
    const createdAt = Date.now();
    const taskId = this.ids.mint({ queue: entry.registered.action.task!.queue, jobId: result.response as string, owner: callerScope(connection), createdAt });
    return { resultType: "task", ...this.fields(taskId, "working", createdAt) };
  }

  /** `tasks/get`: the task as it stands, with the tool's result once completed, or the error once failed. */
  async get(taskId: unknown, connection: Connection, entryOf: (actionName: string) => ToolEntry | undefined): Promise<Record<string, unknown>> {
    const reference = this.referenceOf(taskId, connection);
    const state = await this.stateOf(taskId as string);
    const job = await this.jobs.getJob(reference.queue, state?.jobId ?? reference.jobId);
    const cancelled = await this.isCancelled(taskId as string);
    const status = cancelled ? "cancelled" : statusOf(job);
    const fields = this.fields(taskId as string, status, reference.createdAt);
    if (status === "input_required") {
      const { questions } = askedValueOf(job)!;
      const open = Object.entries(questions).filter(([key]) => !(state?.answers && key in state.answers));
      return { ...fields, inputRequests: Object.fromEntries(open.map(([key, question]) => [key, inputRequestOf(question)])) };
    }
    if (status === "completed") {
      const result = await this.toolResultOf(job!, entryOf(job!.action));
      return { ...fields, result };
    }
    if (status === "failed") {
      const error = job?.error;
      return { ...fields, error: { code: ProtocolErrorCode.InternalError, message: error?.message ?? "The task's job is gone", ...(error ? { data: { type: error.type } } : {}) } };
    }
    const statusMessage = job?.progress && statusMessageOf(job.progress);
    return statusMessage ? { ...fields, statusMessage } : { ...fields };
  }

  /** `tasks/cancel`: marks the task cancelled and stops its job; a task already ended stays as it ended. */
  async cancel(taskId: unknown, connection: Connection): Promise<void> {
    const reference = this.referenceOf(taskId, connection);
    const jobId = (await this.stateOf(taskId as string))?.jobId ?? reference.jobId;
    const job = await this.jobs.getJob(reference.queue, jobId);
    const status = job && statusOf(job);
    if (status && status !== "working" && status !== "input_required") return;
    await this.marks.claim(this.markKey(taskId as string), "cancelled", this.jobs.resultTtlMs);
    await this.jobs.cancel(reference.queue, jobId, "The task was cancelled");
  }

  /**
   * `tasks/update`: the client's answers to the open questions of a task waiting for input. Once
   * every open question has one, the job runs again with them (a new job, which the task follows);
   * until then the task keeps waiting for the rest.
   */
  async update(taskId: unknown, inputResponses: Record<string, unknown> | undefined, connection: Connection): Promise<void> {
    const reference = this.referenceOf(taskId, connection);
    const { text: stateText, state } = await this.stateRecord(taskId as string);
    const jobId = state?.jobId ?? reference.jobId;
    const job = await this.jobs.getJob(reference.queue, jobId);
    const asked = (await this.isCancelled(taskId as string)) ? undefined : askedValueOf(job);
    if (!asked) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "The task is not waiting for input", { taskId });
    const answers = { ...state?.answers };
    for (const [key, question] of Object.entries(asked.questions)) {
      const answer = answerIn(inputResponses, key, askedKindOf(question));
      if (answer) answers[key] = answer;
    }
    const complete = Object.keys(asked.questions).every((key) => key in answers);
    // The task's owner answered: the job runs again for this caller, as the first ran for its creator.
    const next: TaskState = complete
      ? { jobId: await this.jobs.resume(reference.queue, jobId, { ...asked.answered, ...answers }, jobCallerOf(connection)), answers: {} }
      : { jobId, answers };
    await this.saveState(taskId as string, stateText, next);
  }

  private referenceOf(taskId: unknown, connection: Connection) {
    const reference = typeof taskId === "string" ? this.ids.read(taskId) : undefined;
    // Another caller's task is unknown to this one, as a task id never minted is.
    if (!reference || reference.owner !== callerScope(connection)) throw unknownTask(taskId);
    return reference;
  }

  private async isCancelled(taskId: string): Promise<boolean> {
    return (await this.marks.read(this.markKey(taskId))) === "cancelled";
  }

  private async stateOf(taskId: string): Promise<TaskState | undefined> {
    return (await this.stateRecord(taskId)).state;
  }

  /** The task's state, and the text it is stored as, which a replacement must find unchanged (saveState). */
  private async stateRecord(taskId: string): Promise<{ text: string | undefined; state: TaskState | undefined }> {
    const text = await this.marks.read(this.stateKey(taskId));
    return { text, state: text === undefined ? undefined : (JSON.parse(text) as TaskState) };
  }

  /** Replaces the task's state, if it is still `before`: of two updates at once, the first wins. */
  private async saveState(taskId: string, before: string | undefined, state: TaskState): Promise<void> {
    const text = JSON.stringify(state);
    if (before === undefined) await this.marks.claim(this.stateKey(taskId), text, this.jobs.resultTtlMs);
    else await this.marks.settle(this.stateKey(taskId), before, text, this.jobs.resultTtlMs);
  }

  private stateKey(taskId: string): string {
    return `mcp-task-state:${taskId}`;
  }

  private markKey(taskId: string): string {
    return `mcp-task-cancelled:${taskId}`;
  }

  private fields(taskId: string, status: TaskStatus, createdAt: number): TaskFields {
    return {
      taskId,
      status,
      createdAt: new Date(createdAt).toISOString(),
      lastUpdatedAt: new Date(status === "working" ? createdAt : Date.now()).toISOString(),
      ttlMs: this.jobs.resultTtlMs,
      pollIntervalMs: POLL_INTERVAL_MS,
    };
  }

  private async toolResultOf(job: JobOutcome, entry: ToolEntry | undefined): Promise<CallToolResult> {
    const context: ToolCallContext = {
      format: entry?.format ?? MCP_RESPONSE_FORMAT.JSON,
      ...(entry?.wrapsResult !== undefined ? { wrapsResult: entry.wrapsResult } : {}),
      signal: AbortSignal.abort(),
    };
    if (job.error) return toolResult(errorResultOf(job.error), context);
    const text = JSON.stringify(job.result ?? null);
    return toolResult({ actionName: "", status: 200, durationMs: 0, response: job.result, answer: { kind: "json", text } }, context);
  }
}

/** What a running job last reported, as a task's status message: its message, else how far it got. */
function statusMessageOf(progress: NonNullable<JobOutcome["progress"]>): string {
  return progress.message ?? (progress.total === undefined ? String(progress.progress) : `${progress.progress}/${progress.total}`);
}

/**
 * A job's state as a task's: queued or running is working; a success, or a refusal of the
 * action's own (a 4xx: the tool ran and reported an error), is completed; a server error is
 * failed; a job stopped by `tasks/cancel` is cancelled; a job gone (its outcome expired) failed.
 */
function statusOf(job: JobOutcome | undefined): TaskStatus {
  if (!job) return "failed";
  if (job.status === "succeeded") return "completed";
  if (job.status !== "failed") return "working";
  if (askedValueOf(job)) return "input_required";
  const error = job.error!;
  if (error.type === ErrorType.CONNECTION_CLIENT_GONE) return "cancelled";
  return (ErrorStatusCodes[error.type] ?? 500) >= 500 ? "failed" : "completed";
}
