import { z } from "zod";
import { zIdOrModel, zodFromEntity } from "herald";
import { Message } from "../entities/message";

/** A message row, generated from the entity's columns. */
export const zMessageSchema = zodFromEntity(Message);
export type MessageModel = z.output<typeof zMessageSchema>;

/** A row of `messages:list`, as its outputs and the messages channel describe it. */
export const zMessageListRow = z.object({
  id: z.number().int(),
  body: z.string(),
  user_name: z.string().nullable().describe("The author's name; null when no user matches"),
});
export type MessageListRow = z.output<typeof zMessageListRow>;

export function serializeMessage(message: MessageModel): MessageModel {
  return zMessageSchema.parse(message);
}

function isMessage(value: unknown): value is MessageModel {
  return typeof value === "object" && value !== null;
}

/** A message id (loaded from the database) or a message model (passed through). */
export function zMessageIdOrModel() {
  return zIdOrModel(Message, zMessageSchema, isMessage, "Message");
}
