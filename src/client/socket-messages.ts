/** What the client sends over the socket, besides the messageId every message has (docs/websocket.md). */
export type ClientMessage =
  | { messageType: "action"; action: string; params: object; idempotencyKey?: string }
  | { messageType: "subscribe" | "unsubscribe"; channel: string };

/** A message from the server: a reply to one sent (by `messageId`), a channel's message, a presence event or an error. */
export type ServerMessage = Record<string, unknown>;

const text = new TextDecoder();

/** The JSON object a frame holds, or undefined when it holds none (the server sends nothing else). */
export function readServerMessage(data: unknown): ServerMessage | undefined {
  const json = typeof data === "string" ? data : data instanceof ArrayBuffer ? text.decode(data) : undefined;
  if (json === undefined) return undefined;
  try {
    const message: unknown = JSON.parse(json);
    return message && typeof message === "object" && !Array.isArray(message) ? (message as ServerMessage) : undefined;
  } catch {
    return undefined;
  }
}
