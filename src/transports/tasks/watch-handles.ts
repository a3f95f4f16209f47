import { createHash, createHmac, randomBytes } from "node:crypto";
import { Lifecycle, scoped } from "tsyringe";
import { z } from "zod";
import { readSettings } from "../../core/config";
import { ErrorType, TypedError } from "../../core/errors";
import { safeCompare } from "../../core/safe-compare";
import { HeraldServer } from "../../core/server";

/**
 * What a watch handle points at, signed: one job, or a fan-out, and who may watch it: `owner` is
 * the digest of that caller's scope (see ownerDigest), or ANY_WATCHER.
 */
export type WatchTarget =
  | { kind: "job"; queue: string; jobId: string; owner: string }
  | { kind: "fanOut"; fanOutId: string; owner: string };

/** The owner of a handle any caller may watch (TaskService.watchHandle's `"anyone"`). */
export const ANY_WATCHER = "*";

/**
 * A caller scope as a handle carries it: a handle is readable by whoever holds it (and sits in a
 * URL), so it names its watcher without showing the session id or address behind the scope.
 */
export function ownerDigest(scope: string): string {
  return scope === ANY_WATCHER ? ANY_WATCHER : createHash("sha256").update(`tasks-watch-owner\0${scope}`).digest("base64url").slice(0, 22);
}

/** Shorter keys are refused, as MCP's request-state key is. */
const MIN_WATCH_KEY_LENGTH = 32;

const watchSettings = z.object({
  /** The HMAC key of watch handles; the same in every process, so that a handle minted in one is read by the others. */
  TASKS_WATCH_KEY: z.string().optional(),
});

/** TASKS_WATCH_KEY, when set; checked here rather than in the schema, whose error would carry the rejected value. */
export function readWatchKey(server: Pick<HeraldServer, "config">): string | undefined {
  const key = readSettings(watchSettings, server.config).TASKS_WATCH_KEY;
  if (key === undefined || key.length >= MIN_WATCH_KEY_LENGTH) return key;
  throw new TypedError({
    message: `Invalid environment variable TASKS_WATCH_KEY: must be at least ${MIN_WATCH_KEY_LENGTH} characters long`,
    type: ErrorType.CONFIG_ERROR,
    key: "TASKS_WATCH_KEY",
  });
}

/**
 * Watch handles that need no store: the target as base64url JSON and its HMAC, under
 * TASKS_WATCH_KEY, so any process reads a handle another minted. The MAC makes a handle
 * impossible to forge or to point at another caller's job. Without the key, each server signs
 * with a random one of its own: its handles are read by it alone.
 */
@scoped(Lifecycle.ContainerScoped)
export class WatchHandles {
  private readonly key: Buffer | string;
  /** Whether handles are read by this server alone (no TASKS_WATCH_KEY). */
  readonly ownKey: boolean;

  constructor(server: HeraldServer) {
    const key = readWatchKey(server);
    this.ownKey = key === undefined;
    this.key = key ?? randomBytes(32);
  }

  /** A handle of `target` for the caller of scope `target.owner` (or ANY_WATCHER), which it carries as its digest. */
  mint(target: WatchTarget): string {
    const owner = ownerDigest(target.owner);
    const fields = target.kind === "job" ? ["j", target.queue, target.jobId, owner] : ["f", target.fanOutId, owner];
    const body = Buffer.from(JSON.stringify(fields)).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** Whether the caller of `scope` may watch `target`. */
  allows(target: WatchTarget, scope: string): boolean {
    return target.owner === ANY_WATCHER || target.owner === ownerDigest(scope);
  }

  /** The target a handle carries (its owner as a digest), if this app minted it; undefined for anything else. */
  read(handle: string): WatchTarget | undefined {
    const [body, mac, ...rest] = handle.split(".");
    if (!body || !mac || rest.length > 0 || !safeCompare(mac, this.mac(body))) return undefined;
    try {
      const fields = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as unknown[];
      if (!fields.every((field) => typeof field === "string")) return undefined;
      const [kind, ...parts] = fields as string[];
      if (kind === "j" && parts.length === 3) return { kind: "job", queue: parts[0]!, jobId: parts[1]!, owner: parts[2]! };
      if (kind === "f" && parts.length === 2) return { kind: "fanOut", fanOutId: parts[0]!, owner: parts[1]! };
      return undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    // The domain separates these MACs from any other made with a key an operator might reuse.
    return createHmac("sha256", this.key).update(`tasks-watch\0${body}`).digest("base64url");
  }
}
