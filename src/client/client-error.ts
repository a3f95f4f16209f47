import type { ClientErrorShape } from "./action-types.js";

/** One problem of a validation error, as the server's error body lists it. */
export interface ClientErrorIssue {
  path: (string | number)[];
  message: string;
  code: string;
}

/** The error body every Herald transport answers with. */
export interface ClientErrorBody {
  message: string;
  type: string;
  key?: string;
  value?: unknown;
  issues?: ClientErrorIssue[];
  timestamp?: string;
}

/**
 * The one error a call rejects with when the server answers with Herald's error body: its `type`,
 * `status`, `key`, `issues` and `value` as sent, and the action that was called.
 * `client.errorOf(action, error)` narrows it to the errors that action declares.
 */
export class HeraldClientError extends Error {
  override readonly name = "HeraldClientError";
  readonly type: string;
  readonly key: string | undefined;
  readonly value: unknown;
  readonly issues: ClientErrorIssue[] | undefined;

  constructor(
    /** The action called; `""` for an error of a channel's subscription, or one the socket answered no call with. */
    readonly action: string,
    /** The HTTP status, or the status the error type maps to when it came over WebSocket. */
    readonly status: number,
    body: ClientErrorBody,
    /** The channel whose subscription failed, for a socket's `subscribe`. */
    readonly channel?: string,
  ) {
    super(body.message);
    this.type = body.type;
    this.key = body.key;
    this.value = body.value;
    this.issues = body.issues;
  }
}

/** A HeraldClientError typed by one of an action's declared errors: `type`, `status` and `value` narrow together. */
export type TypedClientError<E extends ClientErrorShape> = E extends ClientErrorShape
  ? Omit<HeraldClientError, "type" | "status" | "value"> & {
      readonly type: E["type"];
      readonly status: E["status"];
      readonly value: "value" extends keyof E ? E["value"] : undefined;
    }
  : never;

/** Whether `body` is Herald's error body (`{ error: { message, type } }`). */
export function errorBodyOf(body: unknown): ClientErrorBody | undefined {
  if (!body || typeof body !== "object" || !("error" in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (!error || typeof error !== "object") return undefined;
  const { message, type } = error as { message?: unknown; type?: unknown };
  return typeof message === "string" && typeof type === "string" ? (error as ClientErrorBody) : undefined;
}
