import { reconnectDelay, type ReconnectOptions } from "./reconnect-delay.js";
import { SocketClosedError } from "./socket-closed-error.js";

/** What the connection tells its owner. */
export interface ConnectionHandlers {
  /** Connected; `again` after a drop, when the server has forgotten the subscriptions. */
  open(again: boolean): void;
  message(data: unknown): void;
  /** A WebSocket closed: `wasOpen` unless it never connected. */
  closed(wasOpen: boolean, code: number, reason: string): void;
  /** The next attempt to connect waits `delayMs`. */
  reconnecting(attempt: number, delayMs: number): void;
}

/**
 * One WebSocket at a time to the same URL: when it drops, or fails to connect, another is opened
 * after a growing delay, until `close()`.
 */
export class ReconnectingConnection {
  private socket: WebSocket | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failedAttempts = 0;
  private hasOpened = false;
  private closedForGood = false;

  constructor(
    private readonly connect: () => WebSocket,
    private readonly handlers: ConnectionHandlers,
    private readonly delays: ReconnectOptions = {},
  ) {
    this.open();
  }

  get isOpen(): boolean {
    return this.socket !== undefined && this.socket.readyState === this.socket.OPEN;
  }

  get isClosed(): boolean {
    return this.closedForGood;
  }

  /** Sends one frame; throws SocketClosedError when not connected. */
  send(text: string): void {
    if (!this.isOpen) throw new SocketClosedError();
    this.socket!.send(text);
  }

  /** Closes for good: no reconnection follows. */
  close(): void {
    if (this.closedForGood) return;
    this.closedForGood = true;
    clearTimeout(this.timer);
    this.socket?.close(1000);
  }

  private open(): void {
    const socket = this.connect();
    this.socket = socket;
    // Browsers hand a binary frame over as a Blob by default, which cannot be read synchronously.
    socket.binaryType = "arraybuffer";
    let wasOpen = false;
    socket.addEventListener("open", () => {
      wasOpen = true;
      this.failedAttempts = 0;
      const again = this.hasOpened;
      this.hasOpened = true;
      this.handlers.open(again);
    });
    socket.addEventListener("message", (event) => this.handlers.message(event.data));
    let ended = false;
    const end = (code: number, reason: string) => {
      if (ended) return;
      ended = true;
      if (this.socket === socket) this.socket = undefined;
      this.handlers.closed(wasOpen, code, reason);
      if (!this.closedForGood) this.retry();
    };
    // Node.js 22's WebSocket reports a connection that failed with "error" alone, never "close"
    // (browsers and Node.js 24 send both): a failed attempt ends on whichever comes first.
    socket.addEventListener("error", () => {
      if (!wasOpen) end(1006, "");
    });
    socket.addEventListener("close", (event) => end(event.code, event.reason));
  }

  private retry(): void {
    this.failedAttempts += 1;
    const delay = reconnectDelay(this.failedAttempts, this.delays);
    this.handlers.reconnecting(this.failedAttempts, delay);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.closedForGood) this.open();
    }, delay);
  }
}
