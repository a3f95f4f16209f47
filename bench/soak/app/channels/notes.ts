import { Channel } from "herald";

/** Every note, as it is added on any process. */
export class NotesChannel extends Channel {
  name = "notes";
}
