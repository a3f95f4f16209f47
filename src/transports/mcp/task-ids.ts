import { createHmac, randomBytes } from "node:crypto";
import { safeCompare } from "../../core/safe-compare";

/** What a task id carries, signed: the job behind it, who made it, and when. */
export interface TaskReference {
  queue: string;
  jobId: string;
  /** The caller the task belongs to (see callerOf in tasks.ts). */
  owner: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/**
 * Task ids that need no store: the reference as base64url JSON and its HMAC, under a key every
 * process shares (MCP_REQUEST_STATE_KEY), so any process reads a task another made. The job id is
 * random, and the MAC makes an id impossible to forge or to point at another caller's job.
 */
export class TaskIds {
  private readonly key: Buffer | string;

  constructor(key: string | undefined) {
    this.key = key ?? randomBytes(32);
  }

  mint(reference: TaskReference): string {
    const body = Buffer.from(JSON.stringify([reference.queue, reference.jobId, reference.owner, reference.createdAt])).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** The reference a task id carries, if this app minted it; undefined for anything else. */
  read(taskId: string): TaskReference | undefined {
    const [body, mac, ...rest] = taskId.split(".");
    if (!body || !mac || rest.length > 0 || !safeCompare(mac, this.mac(body))) return undefined;
    try {
      const [queue, jobId, owner, createdAt] = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as [string, string, string, number];
      return { queue, jobId, owner, createdAt };
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac("sha256", this.key).update(`mcp-task\0${body}`).digest("base64url");
  }
}
