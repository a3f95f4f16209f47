import { z } from "zod";
import {
  CONNECTION_TYPE,
  ErrorType,
  HeraldConfig,
  TypedError,
  injectable,
  readSettings,
  safeCompare,
  type ActionMiddleware,
  type Connection,
  type MiddlewareSecurity,
} from "herald";

/** The header a caller presents its key in. */
export const API_KEY_HEADER = "x-api-key";

const settings = z.object({ ADMIN_API_KEY: z.string().optional() });
const MIN_KEY_LENGTH = 32;

/**
 * Callers that never come from the network: a job was queued by the server's own code, and the
 * CLI runs on the server with its environment (and so its key) at hand.
 */
const TRUSTED_TRANSPORTS = new Set<CONNECTION_TYPE>([CONNECTION_TYPE.task, CONNECTION_TYPE.cli]);

/**
 * Admits network callers (HTTP, WebSocket, MCP) only when their `x-api-key` header matches the
 * `ADMIN_API_KEY` setting. Without the setting no key matches, so the guarded actions stay shut
 * to the network while the CLI and the task workers keep running them.
 */
@injectable()
export class RequireApiKey implements ActionMiddleware {
  readonly security: readonly MiddlewareSecurity[] = [
    { name: "apiKey", scheme: { type: "apiKey", in: "header", name: API_KEY_HEADER, description: "The key set in ADMIN_API_KEY." } },
  ];
  readonly errors = { CONNECTION_NOT_AUTHENTICATED: true };
  private readonly expected: string | undefined;

  constructor(config: HeraldConfig) {
    const key = readSettings(settings, config).ADMIN_API_KEY;
    if (key !== undefined && key.length < MIN_KEY_LENGTH) {
      // Checked here rather than in the schema, whose error would carry the short key into the log.
      throw new TypedError({
        message: `Invalid environment variable ADMIN_API_KEY: must be at least ${MIN_KEY_LENGTH} characters`,
        type: ErrorType.CONFIG_ERROR,
        key: "ADMIN_API_KEY",
      });
    }
    this.expected = key;
  }

  async runBefore(_params: unknown, connection: Connection): Promise<void> {
    if (TRUSTED_TRANSPORTS.has(connection.type)) return;
    const presented = connection.headers[API_KEY_HEADER];
    // safeCompare, never ===: a plain comparison's timing tells how much of the key was right.
    if (this.expected === undefined || presented === undefined || !safeCompare(presented, this.expected)) {
      throw new TypedError({ message: "A valid API key is required", type: ErrorType.CONNECTION_NOT_AUTHENTICATED });
    }
  }
}
