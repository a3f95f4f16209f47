import { DataSource } from "typeorm";
import { z } from "zod";
import { ChannelPublisher, HTTP_METHOD, Logger, Web, type Action, type ActionParams } from "herald";
import { MESSAGES_CHANNEL } from "../channels/messages";
import { Message } from "../entities/message";
import { RequireSignIn } from "../middleware/require-sign-in";
import { serializeMessage, zMessageSchema, type MessageListRow } from "../schemas/message";
import { storableText } from "../schemas/text";

@Web({ route: "/message", method: HTTP_METHOD.PUT })
export class MessageCreate implements Action {
  name = "message:create";
  description = "Post a message as the signed-in user; it is published on the messages channel";
  inputs = z.object({
    body: storableText().trim().min(1).max(2000).describe("The message, 1 to 2000 characters"),
  });
  outputs = z.object({ message: zMessageSchema });
  // Declared, though none are its own, so that any other error it ends with is logged as a contract breach.
  errors = {};
  middleware = [RequireSignIn];
  mcp = { tool: false };

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: ChannelPublisher,
    private readonly logger: Logger,
  ) {}

  async run(params: ActionParams<MessageCreate>) {
    const author = params.currentUser;
    const messages = this.dataSource.getRepository(Message);
    // A single INSERT: see user:create for why no wrapping transaction.
    const message = await messages.save(messages.create({ body: params.body, user_id: author.id }), { transaction: false });
    const row: MessageListRow = { id: message.id, body: message.body, user_name: author.name };
    try {
      await this.publisher.publish(MESSAGES_CHANNEL, row);
    } catch (error) {
      // The message is stored: failing the call now would make the client post it twice.
      // Live delivery is at most once anyway; readers catch up from messages:list.
      this.logger.warn({ err: error, messageId: message.id }, "new message not published");
    }
    return { message: serializeMessage(message) };
  }
}
