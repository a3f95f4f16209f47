import { injectable } from "tsyringe";
import { z } from "zod";
import type { ActionDefinition, ActionTransport, WebConfig } from "../../core/action";
import { callerScope } from "../../core/caller-scope";
import type { Connection } from "../../core/connection";
import { CONNECTION_TYPE, HTTP_METHOD } from "../../core/constants";
import type { ErrorDeclarations } from "../../core/error-declarations";
import { secret } from "../../core/secret";
import type { JobWatchEvent } from "./job-events";
import { JobWatches } from "./job-watches";

const jobError = z.looseObject({ message: z.string(), type: z.string(), timestamp: z.string() });
const progressFields = { progress: z.number(), total: z.number().optional(), message: z.string().optional() };
const count = z.number().int().min(0);

/** Each value `tasks:watch` yields, for its OpenAPI operation and client types. */
const watchEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("status"),
    status: z.enum(["waiting", "delayed", "active"]),
    attempts: count,
    progress: z.object(progressFields).optional(),
  }).describe("The job as it stands when the watch begins"),
  z.object({ type: z.literal("progress"), ...progressFields }).describe("What the job reported (connection.reportProgress)"),
  z.object({ type: z.literal("retrying"), attempt: count, error: jobError }).describe("An attempt failed and will be retried"),
  z.object({ type: z.literal("completed"), result: z.unknown() }).describe("The job's result (a fan-out's: its whole progress); the last event"),
  z.object({ type: z.literal("failed"), error: jobError }).describe("The error body of its last attempt; the last event"),
  z.object({ type: z.literal("fanOut"), total: count, succeeded: count, failed: count, pending: count, complete: z.boolean() }).describe("A fan-out's counts, after a child ended"),
]);

// Secret: whoever holds a handle minted for "anyone" may watch, so the logs show it as [[secret]].
const inputs = z.object({ handle: secret(z.string().min(1).max(4096).describe("A watch handle, from TaskService.watchHandle or enqueueWatched")) });

/**
 * `tasks:watch`, Herald's action for an app with task actions: the events of the job (or fan-out)
 * a watch handle names, as they happen, until its outcome. Over HTTP they are Server-Sent Events
 * at `GET /api/jobs/:handle/events`, over WebSocket stream messages, on the command line lines.
 * Not an MCP tool: an MCP task's status is `tasks/get`'s.
 */
@injectable()
export class TaskWatchAction implements ActionDefinition<typeof inputs> {
  readonly name = "tasks:watch";
  readonly description = "The progress and outcome of a queued job, as they happen, for the caller that queued it";
  readonly inputs = inputs;
  readonly outputs = watchEvent;
  readonly errors: ErrorDeclarations = { CONNECTION_NOT_FOUND: true, CONNECTION_FORBIDDEN: true };
  readonly web: WebConfig = { route: "/jobs/:handle/events", method: HTTP_METHOD.GET, streaming: true };
  readonly transports: readonly ActionTransport[] = [CONNECTION_TYPE.web, CONNECTION_TYPE.websocket, CONNECTION_TYPE.cli];
  // A watch lasts as long as its job: it ends with the outcome, or when its caller leaves.
  readonly timeout = 0;

  constructor(private readonly watches: JobWatches) {}

  run(params: z.output<typeof inputs>, connection: Connection): Promise<AsyncIterable<JobWatchEvent>> {
    return this.watches.open(params.handle, callerScope(connection));
  }
}
