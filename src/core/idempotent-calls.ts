import { createHash } from "node:crypto";
import type { ActionResult, Answer } from "./action-result";
import { callerScope } from "./caller-scope";
import type { Connection } from "./connection";
import { typedErrorOf, type ErrorBody } from "./error-body";
import { ErrorStatusCodes, ErrorType, TypedError } from "./errors";
import type { IdempotencyStore } from "./idempotency-store";
import type { Logger } from "./logger";
import { uniqueId } from "./unique-id";

/** Visible ASCII, as an HTTP header carries it, and no longer than a UUID needs several times over. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What the store holds for a key: the first call's claim while it runs, then its answer. */
type KeyRecord =
  | { state: "running"; fingerprint: string; claim: string }
  | { state: "done"; fingerprint: string; status: number; json?: string; error?: ErrorBody };

/** What a call made with a key does: run (then settle), answer what the first call answered, or be refused. */
export type IdempotencyClaim =
  | {
      kind: "first";
      /** Keeps the answer for replay, or frees the key when it is not kept (a server error, a stream). */
      settle(result: Pick<ActionResult, "actionName" | "status" | "answer">): Promise<void>;
      /** Frees the key: the call did not happen, and a retry makes it. */
      release(): Promise<void>;
    }
  | { kind: "replay"; status: number; answer: Answer; response?: unknown; error?: TypedError }
  | { kind: "refused"; error: TypedError };

/** The same params give the same text, whatever the order of their keys; a file counts by name, size and type. */
function canonicalText(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (item instanceof Blob) return { file: (item as File).name, size: item.size, type: item.type };
      if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
      const record = item as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(record)
          .sort()
          .map((name) => [name, record[name]]),
      );
    }) ?? ""
  );
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

function invalidKey(key: string): TypedError {
  return new TypedError({
    message: "An idempotency key is 1 to 255 visible ASCII characters",
    type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING,
    key: "idempotencyKey",
    value: key.slice(0, 64),
  });
}

function keyInUse(): TypedError {
  return new TypedError({
    message: "A call with this idempotency key is still running: retry once it has answered",
    type: ErrorType.CONNECTION_CONFLICT,
    key: "idempotencyKey",
  });
}

function keyReused(): TypedError {
  return new TypedError({
    message: "This idempotency key was used for another call: a key names one call, with its action and params",
    type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
    key: "idempotencyKey",
  });
}

/**
 * Answers of calls that did not finish, which a retry should make again rather than be told again:
 * refused for their rate (429), or left by their caller (499).
 */
const UNFINISHED = new Set([ErrorStatusCodes[ErrorType.CONNECTION_RATE_LIMITED], ErrorStatusCodes[ErrorType.CONNECTION_CLIENT_GONE]]);

/** An answer the store can give again: JSON or an error below 500. A stream, a framed value, a server error or an unfinished call is not kept. */
function storedAnswer(result: Pick<ActionResult, "status" | "answer">, fingerprint: string): KeyRecord | undefined {
  if (result.status >= 500 || UNFINISHED.has(result.status)) return undefined;
  const { answer } = result;
  if (answer.kind === "json") return { state: "done", fingerprint, status: result.status, json: answer.text };
  if (answer.kind === "error") return { state: "done", fingerprint, status: result.status, error: answer.body };
  return undefined;
}

function replayOf(record: Extract<KeyRecord, { state: "done" }>): IdempotencyClaim {
  if (record.json !== undefined) {
    return { kind: "replay", status: record.status, answer: { kind: "json", text: record.json }, response: JSON.parse(record.json) as unknown };
  }
  const body = record.error!;
  const error = typedErrorOf(body.error);
  return { kind: "replay", status: record.status, answer: { kind: "error", error, body }, error };
}

/**
 * Calls made with an idempotency key: the first runs and its answer is kept for the store's TTL;
 * a retry by the same caller with the same action and params gets that answer again without
 * running; the same key for another call is refused (422), and one while the first still runs too
 * (409). Server errors are not kept, so a retry after one runs again. docs/idempotency.md.
 */
export class IdempotentCalls {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly logger: Logger,
  ) {}

  /** How long an answer is replayed, in milliseconds. */
  get ttlMs(): number {
    return this.store.ttlMs;
  }

  /**
   * Claims `key` for a call of `actionName` by the caller of `connection`. `holdMs` bounds the
   * claim of a call that never settles (its process died): after it, a retry runs again.
   */
  claim(actionName: string, key: string, params: unknown, connection: Connection, holdMs: number): Promise<IdempotencyClaim> {
    return this.claimIn(callerScope(connection), actionName, key, params, holdMs);
  }

  /** Claims `key` within `scope`, one namespace of keys (a caller's, or the app's own for the jobs it queues). */
  async claimIn(scope: string, actionName: string, key: string, params: unknown, holdMs: number): Promise<IdempotencyClaim> {
    if (!KEY_PATTERN.test(key)) return { kind: "refused", error: invalidKey(key) };
    const storeKey = digest(`${scope}\0${key}`);
    const fingerprint = digest(`${actionName}\0${canonicalText(params)}`);
    const claimed = JSON.stringify({ state: "running", fingerprint, claim: uniqueId() } satisfies KeyRecord);
    const found = await this.store.claim(storeKey, claimed, holdMs);
    if (found === undefined) {
      return {
        kind: "first",
        settle: (result) => this.settle(storeKey, claimed, result, fingerprint),
        release: () => this.store.release(storeKey, claimed),
      };
    }
    const record = JSON.parse(found) as KeyRecord;
    if (record.fingerprint !== fingerprint) return { kind: "refused", error: keyReused() };
    if (record.state === "running") return { kind: "refused", error: keyInUse() };
    return replayOf(record);
  }

  /** Keeps the first call's answer, or frees the key for a retry; a store that fails only costs the replay. */
  private async settle(storeKey: string, claimed: string, result: Pick<ActionResult, "actionName" | "status" | "answer">, fingerprint: string): Promise<void> {
    const stored = storedAnswer(result, fingerprint);
    try {
      if (stored) await this.store.settle(storeKey, claimed, JSON.stringify(stored), this.store.ttlMs);
      else await this.store.release(storeKey, claimed);
    } catch (error) {
      this.logger.warn({ action: result.actionName, err: (error as Error).message }, "idempotency: the call's answer could not be kept: a retry runs it again once its claim expires");
    }
  }
}
