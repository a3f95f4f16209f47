import WebSocket from "ws";

export type ServerMessage = Record<string, any>;

let nextId = 0;

/** A real `ws` client that keeps what it receives and waits for messages by content. */
export class WsClient {
  readonly received: ServerMessage[] = [];
  readonly closed: Promise<number>;
  private readonly waiters = new Set<{ match: (message: ServerMessage) => boolean; resolve: (message: ServerMessage) => void }>();

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(data.toString()) as ServerMessage;
      } catch {
        message = { unparseable: data.toString() };
      }
      this.received.push(message);
      for (const waiter of this.waiters) {
        if (!waiter.match(message)) continue;
        this.waiters.delete(waiter);
        waiter.resolve(message);
      }
    });
    ws.on("error", () => undefined);
    this.closed = new Promise((resolve) => ws.once("close", (code) => resolve(code)));
  }

  /** Opens a socket on the server at `baseUrl` (its http:// URL), with these headers on the upgrade. */
  static open(baseUrl: string, path = "/ws", headers: Record<string, string> = {}): Promise<WsClient> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}${path}`, { headers });
    const client = new WsClient(ws);
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(client));
      ws.once("error", reject);
    });
  }

  /** The next message matching `match` that arrives from now on. */
  next(match: (message: ServerMessage) => boolean): Promise<ServerMessage> {
    return new Promise((resolve) => this.waiters.add({ match, resolve }));
  }

  /** Sends a message with a fresh messageId and resolves with the reply to it. */
  request(message: Record<string, unknown>): Promise<ServerMessage> {
    nextId += 1;
    const withId = { messageId: `r${nextId}`, ...message };
    const reply = this.next((received) => received.messageId === withId.messageId);
    this.ws.send(JSON.stringify(withId));
    return reply;
  }

  call(action: string, params: Record<string, unknown> = {}): Promise<ServerMessage> {
    return this.request({ messageType: "action", action, params });
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await this.closed;
  }
}
