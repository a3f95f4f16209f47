import { ErrorType, TypedError } from "../../core/errors";
import type { TraceCarrier } from "../../core/tracing";

/** The client's correlation id, echoed in the reply. */
export type MessageId = string | number;

export type ClientMessage =
  | { messageType: "action"; messageId: MessageId; action: string; params: Record<string, unknown>; trace?: TraceCarrier; idempotencyKey?: string }
  | { messageType: "subscribe"; messageId: MessageId; channel: unknown }
  | { messageType: "unsubscribe"; messageId: MessageId; channel: unknown };

/** A message that cannot be served, with its messageId when it had a usable one. */
export interface RejectedMessage {
  error: TypedError;
  messageId?: MessageId;
}

const MESSAGE_TYPES = ["action", "subscribe", "unsubscribe"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function reject(messageId: MessageId, message: string, type: ErrorType, key: string, value?: unknown): RejectedMessage {
  return { messageId, error: new TypedError({ message, type, key, ...(value === undefined ? {} : { value }) }) };
}

/** Reads one client message: the message, or why it cannot be served. */
export function parseClientMessage(text: string): { message: ClientMessage } | RejectedMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed)) {
    return { error: new TypedError({ message: "A message must be a JSON object", type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING }) };
  }
  const { messageId, messageType } = parsed;
  if (messageId === undefined || messageId === null || messageId === "") {
    return {
      error: new TypedError({ message: "messageId is required", type: ErrorType.CONNECTION_ACTION_PARAM_REQUIRED, key: "messageId" }),
    };
  }
  if (typeof messageId !== "string" && typeof messageId !== "number") {
    return {
      error: new TypedError({ message: "messageId must be a string or a number", type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION, key: "messageId" }),
    };
  }
  if (typeof messageType !== "string" || !MESSAGE_TYPES.includes(messageType)) {
    return reject(
      messageId,
      `Unknown messageType: expected one of ${MESSAGE_TYPES.join(", ")}`,
      ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
      "messageType",
      typeof messageType === "string" ? messageType.slice(0, 100) : undefined,
    );
  }
  if (messageType !== "action") return { message: { messageType: messageType as "subscribe" | "unsubscribe", messageId, channel: parsed.channel } };
  const { action, params = {} } = parsed;
  if (typeof action !== "string" || !action) {
    return reject(messageId, "action (the action's name) is required", ErrorType.CONNECTION_ACTION_PARAM_REQUIRED, "action");
  }
  if (!isRecord(params)) return reject(messageId, "params must be a JSON object", ErrorType.CONNECTION_ACTION_PARAM_FORMATTING, "params");
  const { idempotencyKey } = parsed;
  if (idempotencyKey !== undefined && typeof idempotencyKey !== "string") {
    return reject(messageId, "idempotencyKey must be a string", ErrorType.CONNECTION_ACTION_PARAM_FORMATTING, "idempotencyKey");
  }
  const trace = traceOf(parsed);
  return { message: { messageType, messageId, action, params, ...(trace ? { trace } : {}), ...(idempotencyKey === undefined ? {} : { idempotencyKey }) } };
}

/** The W3C trace context an action message carries (`traceparent`, and `tracestate` with it), continued by the call's span. */
function traceOf(parsed: Record<string, unknown>): TraceCarrier | undefined {
  const { traceparent, tracestate } = parsed;
  if (typeof traceparent !== "string") return undefined;
  return typeof tracestate === "string" ? { traceparent, tracestate } : { traceparent };
}
