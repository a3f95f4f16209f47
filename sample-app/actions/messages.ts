import { DataSource } from "typeorm";
import { z } from "zod";
import { CONNECTION_TYPE, HTTP_METHOD, Task, Web, paginate, paginationInputs, paginationOutputs, type Action, type ActionParams } from "herald";
import { MESSAGES_CHANNEL } from "../channels/messages";
import { Message } from "../entities/message";
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
