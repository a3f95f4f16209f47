import { Message } from "./message";
import { User } from "./user";

export { Message, User };

/** Every entity of the app, for the DataSource. */
export const ENTITIES = [User, Message];
