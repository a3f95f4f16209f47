import { z } from "zod";
import { CONNECTION_TYPE, HTTP_METHOD, TaskService, Web, type Action, type Connection } from "herald";
import { LimitExportsPerAddress } from "../middleware/limit-exports";

/**
 * Queues `messages:export` as a job its caller watches, for the chat page's export button: the
 * answer's `handle` is what `tasks:watch` (`GET /api/jobs/:handle/events`) takes, whose events
 * are the export's progress and then its CSV. It counts as an export against its caller's address.
 */
@Web({ route: "/exports", method: HTTP_METHOD.POST })
export class ExportsStart implements Action {
  name = "exports:start";
  description = "Queues an export of every message as CSV, and answers the handle to watch it with (tasks:watch)";
  // A browser's transports: the command line and MCP export at once, with messages:export.
  transports = [CONNECTION_TYPE.web, CONNECTION_TYPE.websocket];
  outputs = z.object({ jobId: z.string(), queue: z.string(), handle: z.string() });
  errors = {};
  middleware = [LimitExportsPerAddress];

  constructor(private readonly tasks: TaskService) {}

  async run(_params: unknown, connection: Connection) {
    return this.tasks.enqueueWatched("messages:export", {}, connection);
  }
}
