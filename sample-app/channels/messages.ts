import { Channel } from "herald";
import { zMessageListRow } from "../schemas/message";

export const MESSAGES_CHANNEL = "messages";

/**
 * Every new message, the moment it is posted, as a `messages:list` row `{ id, body, user_name }`.
 * Anyone may subscribe: the list itself is public.
 */
export class MessagesChannel extends Channel {
  name = MESSAGES_CHANNEL;
  description = "New messages as they are posted";
  message = zMessageListRow;
}
