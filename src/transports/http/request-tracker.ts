import type { Server, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import { clientGone } from "../../core/client-gone";
import { shuttingDown } from "../../core/shutting-down";

const clientLeft = () => clientGone("The client closed the connection before the response");

/**
 * The requests in flight and the sockets of one listener: gives each action call the controller
 * that aborts it when the client leaves, and closes the listener gracefully.
 */
export class RequestTracker {
  private readonly sockets = new Set<Socket>();
  /** Each response in flight, with the controller of its action call once it has one. */
  private readonly inFlight = new Map<ServerResponse, AbortController | undefined>();
  private readonly streams = new Set<ServerResponse>();
  private closing = false;
  private listener: Server | undefined;
  /** One listener for every response, instead of a closure per request. */
  private readonly onClose: (this: ServerResponse) => void;
  /**
   * One listener for every socket: a closure and `once`'s wrapper per socket would be kept, with
   * their scopes, for as long as the socket is open (an idle WebSocket's included). `close` is
   * emitted once, so `on` does what `once` would.
   */
  private readonly onSocketClose: (this: Socket) => void;

  constructor() {
    const tracker = this;
    this.onClose = function (this: ServerResponse) {
      tracker.finish(this);
    };
    this.onSocketClose = function (this: Socket) {
      tracker.sockets.delete(this);
    };
  }

  /** True once `close` has begun: the listener takes no more connections, or is about to. */
  get isClosing(): boolean {
    return this.closing;
  }

  watch(listener: Server): void {
    this.listener = listener;
    listener.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", this.onSocketClose);
    });
  }

  /**
   * Tracks a request until its response closes. False once closing has begun: the request came
   * over a kept-alive socket after the listener stopped, and is to be refused rather than run.
   */
  begin(res: ServerResponse): boolean {
    this.inFlight.set(res, undefined);
    res.on("close", this.onClose);
    if (!this.closing) return true;
    res.setHeader("Connection", "close");
    return false;
  }

  /**
   * The controller of the action call a tracked response answers: aborted when the response
   * closes before it finished, or when shutdown runs out of time.
   */
  controller(res: ServerResponse): AbortController {
    let controller = this.inFlight.get(res);
    if (!controller) {
      controller = new AbortController();
      if (this.inFlight.has(res)) this.inFlight.set(res, controller);
      else if (!res.writableFinished) controller.abort(clientLeft());
    }
    return controller;
  }

  /** Marks a response that has no natural end (Server-Sent Events): `close` ends it at once. */
  streaming(res: ServerResponse): void {
    if (this.closing) this.inFlight.get(res)?.abort(shuttingDown());
    else this.streams.add(res);
  }

  /**
   * Stops accepting connections, lets the requests in flight finish for up to `graceMs`, then
   * aborts what remains and closes every socket (upgraded ones included). Idle keep-alive sockets
   * stay open while requests are in flight, so a request a client sent over one just as closing
   * began gets a 503 instead of a reset; they close once nothing is in flight.
   */
  async close(listener: Server, graceMs: number): Promise<void> {
    this.closing = true;
    const closed = stopAccepting(listener);
    for (const res of this.inFlight.keys()) if (!res.headersSent) res.setHeader("Connection", "close");
    for (const res of this.streams) this.inFlight.get(res)?.abort(shuttingDown());
    if (this.inFlight.size === 0) closeIdleSockets(listener);
    const timer = setTimeout(() => {
      for (const controller of this.inFlight.values()) controller?.abort(shuttingDown());
      for (const socket of this.sockets) socket.destroy();
    }, graceMs);
    try {
      await closed;
    } finally {
      clearTimeout(timer);
    }
  }

  private finish(res: ServerResponse): void {
    const controller = this.inFlight.get(res);
    this.inFlight.delete(res);
    this.streams.delete(res);
    if (controller && !res.writableFinished) controller.abort(clientLeft());
    // Once nothing is in flight, no client waits for the listener any more: its idle sockets can go.
    if (this.closing && this.inFlight.size === 0) setImmediate(() => this.listener && closeIdleSockets(this.listener));
  }
}

/**
 * The close of net.Server, which http.Server extends: stops accepting, and resolves once every
 * socket has closed. http.Server's own close would also close the idle keep-alive sockets at
 * once, which resets a request already on its way over one.
 */
function stopAccepting(listener: Server): Promise<void> {
  return new Promise((resolve) => NetServer.prototype.close.call(listener, () => resolve()));
}

/**
 * http.Server's close, once the listener no longer accepts: it closes the idle keep-alive sockets
 * and stops the timer that checks request timeouts. Its callback only reports that the listener
 * was already closed.
 */
function closeIdleSockets(listener: Server): void {
  listener.close(() => undefined);
}
