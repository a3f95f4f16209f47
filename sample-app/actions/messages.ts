import { DataSource } from "typeorm";
import { z } from "zod";
import { CONNECTION_TYPE, HTTP_METHOD, Task, Web, paginate, paginationInputs, paginationOutputs, type Action, type ActionParams, type Connection } from "herald";
import { MESSAGES_CHANNEL } from "../channels/messages";
import { Message } from "../entities/message";
import { LimitExportsPerAddress } from "../middleware/limit-exports";
import { RequireApiKey } from "../middleware/require-api-key";
import { zMessageListRow, type MessageListRow } from "../schemas/message";

@Web({ route: "/messages/list", method: HTTP_METHOD.GET })
export class MessagesList implements Action {
  name = "messages:list";
  description = "Messages, newest first, one page at a time";
  inputs = paginationInputs({ defaultLimit: 10, maxLimit: 50 });
  outputs = z.object({ messages: z.array(zMessageListRow), pagination: paginationOutputs });
  // Declared, though none are its own, so that any other error it ends with is logged as a contract breach.
  errors = {};
  // Also the resource herald://messages: an MCP client listening on it is told of every new message.
  mcp = { tool: true, resource: { uri: "herald://messages", channel: MESSAGES_CHANNEL } };

  constructor(private readonly dataSource: DataSource) {}

  async run(params: ActionParams<MessagesList>) {
    // One pooled connection for the call, on which paginate's two queries queue rather than each
    // taking one: then the bound on one address's calls in flight bounds its connections too.
    const connection = this.dataSource.createQueryRunner();
    try {
      const messages = connection.manager.getRepository(Message);
      const query = messages
        .createQueryBuilder("message")
        .leftJoin("message.user", "user")
        .select("message.id", "id")
        .addSelect("message.body", "body")
        .addSelect("user.name", "user_name")
        .orderBy("message.id", "DESC");
      const page = await paginate<MessageListRow>(query, messages.count(), params, { raw: true });
      return { messages: page.data, pagination: page.pagination };
    } finally {
      await connection.release();
    }
  }
}

/** A hundred years: older than any message, and far from the edge of PostgreSQL's timestamps. */
const MAX_AGE_MS = 100 * 365.25 * 86_400_000;

/** Deletes in bulk: the hourly job and an operator at the CLI run it; no network caller reaches it. */
@Task({ queue: "default", frequency: 3_600_000 })
export class MessagesCleanup implements Action {
  name = "messages:cleanup";
  description = "Delete the messages older than `age` milliseconds";
  transports = [CONNECTION_TYPE.task, CONNECTION_TYPE.cli];
  inputs = z.object({
    age: z.coerce
      .number()
      .int()
      .min(0)
      .max(MAX_AGE_MS)
      .default(86_400_000)
      .describe("Maximum age in milliseconds (default: one day; at most a hundred years)"),
  });
  // Lets the task workers and the CLI through; it would ask any network transport added above for the admin key.
  outputs = z.object({ messagesDeleted: z.number().int().min(0) });
  // Declared, though none are its own, so that any other error it ends with is logged as a contract breach.
  errors = {};
  middleware = [RequireApiKey];

  constructor(private readonly dataSource: DataSource) {}

  async run(params: ActionParams<MessagesCleanup>) {
    // The database clock decides, as it stamped created_at: app servers' clocks may drift.
    const deleted = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(Message)
      .where("created_at < now() - CAST(:age AS double precision) * interval '1 millisecond'", { age: params.age })
      .returning("id")
      .execute();
    return { messagesDeleted: (deleted.raw as unknown[]).length };
  }
}

/** Messages read per query while exporting: one progress report each. */
const EXPORT_BATCH = 100;

/** A CSV field: quoted, with its quotes doubled (RFC 4180). */
function csvField(value: string | number | null): string {
  return value === null ? "" : `"${String(value).replaceAll('"', '""')}"`;
}

/**
 * Every message as CSV, oldest first, reporting its progress after each batch. Over HTTP, the
 * WebSocket and the CLI it answers when done; an MCP client that declared the tasks extension gets
 * a task to poll, whose status message is that progress.
 */
@Web({ route: "/messages/export", method: HTTP_METHOD.GET })
@Task({ queue: "exports" })
export class MessagesExport implements Action {
  name = "messages:export";
  description = "Every message as CSV (id, author, body, created_at), oldest first";
  outputs = z.object({ count: z.number().int().min(0), csv: z.string() });
  errors = {};
  middleware = [LimitExportsPerAddress];

  constructor(private readonly dataSource: DataSource) {}

  async run(_params: unknown, connection: Connection, signal: AbortSignal) {
    const messages = this.dataSource.getRepository(Message);
    const total = await messages.count();
    const lines = ["id,author,body,created_at"];
    let lastId = 0;
    while (!signal.aborted) {
      const batch = await messages
        .createQueryBuilder("message")
        .leftJoin("message.user", "user")
        .select("message.id", "id")
        .addSelect("message.body", "body")
        .addSelect("user.name", "user_name")
        .addSelect("message.created_at", "created_at")
        .where("message.id > :lastId", { lastId })
        .orderBy("message.id", "ASC")
        .limit(EXPORT_BATCH)
        .getRawMany<{ id: number; body: string; user_name: string | null; created_at: Date }>();
      if (batch.length === 0) break;
      for (const row of batch) lines.push([row.id, csvField(row.user_name), csvField(row.body), new Date(row.created_at).toISOString()].join(","));
      lastId = batch.at(-1)!.id;
      await connection.reportProgress(lines.length - 1, total, `${lines.length - 1} of ${total} messages`);
    }
    signal.throwIfAborted();
    return { count: lines.length - 1, csv: `${lines.join("\n")}\n` };
  }
}
