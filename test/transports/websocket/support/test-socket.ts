import WebSocket, { ClientOptions } from "ws";
import { serverUrl } from "herald/testing";

/** Any message the server sends. */
export type ServerMessage = Record<string, any>;

export interface Refusal {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/** The WebSocket URL of the test server. */
export function wsUrl(path = "/ws"): string {
  return `${serverUrl().replace(/^http/, "ws")}${path}`;
}

let nextId = 0;
/** A messageId no other request in the run uses. */
export function newMessageId(): string {
  nextId += 1;
  return `m${nextId}`;
}

/** A real `ws` client that records what it receives and waits for it by content, never by time. */
export class TestSocket {
  readonly received: ServerMessage[] = [];
  /** The headers of the server's handshake (101) response. */
  upgradeHeaders: Record<string, string | string[] | undefined> = {};
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly waiters = new Set<{ predicate: (message: ServerMessage) => boolean; resolve: (message: ServerMessage) => void }>();

  private constructor(readonly ws: WebSocket) {
    ws.once("upgrade", (response) => (this.upgradeHeaders = response.headers));
    ws.on("message", (data) => {
      const message = JSON.parse(data.toString()) as ServerMessage;
      this.received.push(message);
      for (const waiter of this.waiters) {
        if (waiter.predicate(message)) {
          this.waiters.delete(waiter);
          waiter.resolve(message);
        }
      }
    });
    this.closed = new Promise((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static open(url: string = wsUrl(), options: ClientOptions = {}): Promise<TestSocket> {
    const ws = new WebSocket(url, options);
    const socket = new TestSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(socket));
      ws.once("error", reject);
    });
  }

  /** Opens an upgrade that the server is expected to refuse; resolves with its HTTP status and body. */
  static refused(url: string = wsUrl(), options: ClientOptions = {}): Promise<Refusal> {
    const ws = new WebSocket(url, options);
    return new Promise((resolve, reject) => {
      ws.once("open", () => reject(new Error("the upgrade was accepted")));
      ws.once("unexpected-response", (_request, response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, headers: response.headers }));
      });
      ws.once("error", () => undefined);
    });
  }

  send(message: object | string): void {
    this.ws.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Sends a request with a fresh messageId (unless it has one) and resolves with the reply to it. */
  request(message: Record<string, unknown>): Promise<ServerMessage> {
    const withId = { messageId: newMessageId(), ...message };
    const reply = this.next((received) => received.messageId === withId.messageId);
    this.send(withId);
    return reply;
  }

  action(action: string, params: Record<string, unknown> = {}): Promise<ServerMessage> {
    return this.request({ messageType: "action", action, params });
  }

  subscribe(channel: string): Promise<ServerMessage> {
    return this.request({ messageType: "subscribe", channel });
  }

  unsubscribe(channel: string): Promise<ServerMessage> {
    return this.request({ messageType: "unsubscribe", channel });
  }

  /** The first message, already received or still to come, that matches. */
  next(predicate: (message: ServerMessage) => boolean): Promise<ServerMessage> {
    const seen = this.received.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.add({ predicate, resolve }));
  }

  /** The channel message carrying exactly this payload. */
  published(channel: string, message: unknown): Promise<ServerMessage> {
    const expected = JSON.stringify(message);
    return this.next((received) => received.messageType === "message" && received.channel === channel && JSON.stringify(received.message) === expected);
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await this.closed;
  }
}
