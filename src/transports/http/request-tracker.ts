import type { Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ErrorType, TypedError } from "../../core/errors";

const clientGone = () =>
  new TypedError({ message: "The client closed the connection before the response", type: ErrorType.CONNECTION_ACTION_RUN });
const shuttingDown = () =>
  new TypedError({ message: "The server is shutting down", type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });

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

  constructor() {
    const tracker = this;
    this.onClose = function (this: ServerResponse) {
      tracker.finish(this);
    };
  }

  watch(listener: Server): void {
    this.listener = listener;
    listener.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.once("close", () => this.sockets.delete(socket));
    });
  }

  /** Tracks a request until its response closes. */
  begin(res: ServerResponse): void {
    this.inFlight.set(res, undefined);
    if (this.closing) res.setHeader("Connection", "close");
    res.on("close", this.onClose);
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
      else if (!res.writableFinished) controller.abort(clientGone());
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
   * aborts what remains and closes every socket (upgraded ones included).
   */
  async close(listener: Server, graceMs: number): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
    for (const res of this.inFlight.keys()) if (!res.headersSent) res.setHeader("Connection", "close");
    listener.closeIdleConnections();
    for (const res of this.streams) this.inFlight.get(res)?.abort(shuttingDown());
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
    if (controller && !res.writableFinished) controller.abort(clientGone());
    // A keep-alive socket whose response was already under way when closing began.
    if (this.closing) setImmediate(() => this.listener?.closeIdleConnections());
  }
}
