import WebSocket, { RawData } from "ws";
import { context } from "@opentelemetry/api";
import { callIds } from "../../core/call-ids";
import { continuedContext, isTracing } from "../../core/tracing";
import type { Connection } from "../../core/connection";
import type { Answer } from "../../core/action-result";
import type { DispatchOptions, Dispatcher } from "../../core/dispatcher";
import { clientGone } from "../../core/client-gone";
import type { DispatchedStream } from "../../core/dispatched-stream";
import type { ErrorBody } from "../../core/error-body";
import { ErrorType, TypedError } from "../../core/errors";
import type { Logger } from "../../core/logger";
import type { ChannelSubscriptions } from "../../channels/channel-subscriptions";
import { checkChannelName } from "../../channels/channel-name";
import { Session } from "../../sessions/session";
import { ClientMessage, MessageId, parseClientMessage } from "./client-message";
import { WS_CLOSE_CODE } from "./close-codes";
import type { WebSocketSettings } from "./settings";
import type { AddressBackoff } from "./address-backoff";
import type { AddressMessageBudgets, MessageBudget } from "./address-budgets";
import { SocketChannels } from "./socket-channels";
import { shuttingDown } from "../../core/shutting-down";

export interface SocketClientContext {
  dispatcher: Dispatcher;
  channels: ChannelSubscriptions;
  settings: WebSocketSettings;
  logger: Logger;
  budgets: AddressMessageBudgets;
  backoff: AddressBackoff;
  /** Called once a socket has closed and its subscriptions have ended. */
  ended(client: SocketClient): void;
}

/** The client serving a socket, kept on the socket for the listeners every socket shares. */
const CLIENT = Symbol("herald.socketClient");

type ServedSocket = WebSocket & { [CLIENT]: SocketClient };

/** How long a socket closed by the server may take to answer the close frame before it is cut off. */
const CLOSE_ANSWER_MS = 2000;

const clientLeft = () => clientGone("The client closed the socket before the response");

/**
 * One open socket: reads client messages, runs actions (many at once, each answered when it
 * finishes), holds the socket's channel subscriptions, and writes to the socket within the
 * send-buffer bound.
 */
export class SocketClient {
  /**
   * The controller of each action in flight, with the messageId it answers: aborted when the
   * socket closes or the grace period ends. A call no longer here has been answered already.
   * Made by the socket's first action (an empty Map holds about 230 bytes, and many sockets only
   * listen) and kept from then on, so that a busy socket does not make one per message.
   */
  private inFlight: Map<AbortController, MessageId> | undefined;
  // The channel side is made on a socket's first channel call: most sockets never make one, and
  // its four empty collections hold about 700 bytes.
  /** Subscribes and unsubscribes not yet answered, each by its own token, with the messageId it answers. */
  private channelCalls: Map<object, MessageId> | undefined;
  /** Resolves the shutdown's wait once the last action and channel call in flight has been answered. */
  private onIdle: (() => void) | undefined;
  private channels: SocketChannels | undefined;
  private readonly budget: MessageBudget;
  private alive = true;
  private draining = false;
  /** The close's work, from the moment the socket closed. */
  private ending: Promise<void> | undefined;
  /** Made when something waits for `done` before the socket has closed. */
  private endWaiter: { promise: Promise<void>; resolve: (ending: Promise<void>) => void } | undefined;

  constructor(
    private readonly socket: WebSocket,
    readonly connection: Connection,
    private readonly context: SocketClientContext,
  ) {
    this.budget = context.budgets.join(connection.addressKey);
    // The listeners are shared by every socket (ws calls them with the socket as `this`): a
    // closure per socket and event would be kept, with its scope, for as long as the socket lives.
    (socket as ServedSocket)[CLIENT] = this;
    socket.on("message", SocketClient.onMessage);
    socket.on("pong", SocketClient.onPong);
    socket.on("error", SocketClient.onError);
    socket.on("close", SocketClient.onSocketClose);
  }

  /** Settles once the socket has closed and its subscriptions have ended. */
  get done(): Promise<void> {
    if (this.ending) return this.ending;
    if (!this.endWaiter) {
      let resolve!: (ending: Promise<void>) => void;
      const promise = new Promise<void>((settle) => (resolve = settle));
      this.endWaiter = { promise, resolve };
    }
    return this.endWaiter.promise;
  }

  private static onMessage(this: WebSocket, data: RawData): void {
    (this as ServedSocket)[CLIENT].receive(data);
  }

  private static onPong(this: WebSocket): void {
    (this as ServedSocket)[CLIENT].alive = true;
  }

  private static onError(this: WebSocket, error: Error): void {
    const client = (this as ServedSocket)[CLIENT];
    client.context.logger.debug({ err: error, ...client.ids }, "websocket error");
  }

  private static onSocketClose(this: WebSocket, code: number): void {
    const client = (this as ServedSocket)[CLIENT];
    client.budget.release();
    client.context.logger.debug({ ...client.ids, code }, "websocket closed");
    client.ending = client.onClose();
    client.endWaiter?.resolve(client.ending);
    void client.ending.then(() => client.context.ended(client));
  }

  /** What every line about this socket carries: its connection's id, and the id of the HTTP request that upgraded it. */
  private get ids(): Record<string, string | number> {
    return callIds(this.connection, undefined);
  }

  /** Pings the peer; terminates it when it did not answer the previous ping. */
  heartbeat(): void {
    if (!this.alive) {
      this.context.logger.debug(this.ids, "websocket peer stopped answering pings");
      this.socket.terminate();
      return;
    }
    this.alive = false;
    this.socket.ping();
  }

  /**
   * Refuses new messages, lets the actions and channel calls in flight finish for up to `graceMs`
   * (then aborts the actions and answers each call left with CONNECTION_SERVICE_UNAVAILABLE,
   * before the close frame, since an aborted action may take its time to return), and closes the
   * socket with 1001.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.draining = true;
    if (!this.idle) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      const idle = new Promise<void>((resolve) => (this.onIdle = resolve));
      await Promise.race([idle, deadline]);
      clearTimeout(timer);
      for (const [controller, messageId] of this.inFlight ?? []) {
        controller.abort(shuttingDown());
        this.sendError(messageId, shuttingDown());
      }
      this.inFlight?.clear();
      for (const messageId of this.channelCalls?.values() ?? []) this.sendError(messageId, shuttingDown());
      this.channelCalls?.clear();
    }
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(WS_CLOSE_CODE.goingAway, "Server shutting down");
    // A peer that does not answer the close frame is cut off.
    const timer = setTimeout(() => this.socket.terminate(), CLOSE_ANSWER_MS);
    await this.done;
    clearTimeout(timer);
  }

  private receive(data: RawData): void {
    // Once either side has begun to close, no answer can be sent: what arrives is not even read.
    if (this.socket.readyState !== WebSocket.OPEN) return;
    // Checked before anything else is done with the message, so that a flood costs next to nothing.
    if (!this.budget.take()) return this.refuse(data);
    const bytes = toBuffer(data);
    if (bytes.length > this.context.settings.maxMessageSize) {
      const error = new TypedError({
        message: `A message may be at most ${this.context.settings.maxMessageSize} bytes`,
        type: ErrorType.CONNECTION_PAYLOAD_TOO_LARGE,
      });
      return this.sendError(undefined, error);
    }
    const parsed = parseClientMessage(bytes.toString("utf8"));
    if (!("message" in parsed)) return this.sendError(parsed.messageId, parsed.error);
    if (this.draining) return this.sendError(parsed.message.messageId, shuttingDown());
    this.handle(parsed.message);
  }

  /**
   * A message past the address's budget is not run. While the address's allowance of refusals
   * lasts (a second's worth, shared by its sockets) it is answered with its messageId, so that no
   * call is left without an answer; past it, the socket that sent it is closed with 1008, which
   * ends every call it still waits for, and its address backed off. A flood is thus answered at
   * most twice the budget a second per address, and what its closed sockets send is not read.
   */
  private refuse(data: RawData): void {
    if (!this.budget.takeRefusal()) return this.closeForFlood();
    const bytes = toBuffer(data);
    const parsed = bytes.length > this.context.settings.maxMessageSize ? undefined : parseClientMessage(bytes.toString("utf8"));
    const messageId = parsed === undefined ? undefined : "message" in parsed ? parsed.message.messageId : parsed.messageId;
    const { maxMessagesPerSecond } = this.context.settings;
    const error = new TypedError({
      message: `Too many messages from this address: at most ${maxMessagesPerSecond} a second, all its sockets together`,
      type: ErrorType.CONNECTION_RATE_LIMITED,
      value: { limit: maxMessagesPerSecond, retryAfter: 1 },
    });
    this.sendError(messageId, error);
  }

  private closeForFlood(): void {
    const { remoteAddress } = this.connection;
    this.context.logger.warn({ ...this.ids, remoteAddress }, "websocket client keeps sending past its message budget: closing it");
    this.context.backoff.backOff(this.connection.addressKey);
    this.socket.close(WS_CLOSE_CODE.messageFlood, "Message rate limit exceeded");
    // A flooder that does not answer the close frame is cut off rather than read for ws's 30 s.
    const timer = setTimeout(() => this.socket.terminate(), CLOSE_ANSWER_MS);
    this.socket.once("close", () => clearTimeout(timer));
  }

  private handle(message: ClientMessage): void {
    if (message.messageType === "action") {
      // The caller's trace is continued only where a tracer provider records it.
      if (message.trace && isTracing()) {
        return void context.with(continuedContext({ ...message.trace }), () => this.runAction(message.messageId, message.action, message.params, message.idempotencyKey));
      }
      return void this.runAction(message.messageId, message.action, message.params, message.idempotencyKey);
    }
    let channel: string;
    try {
      channel = checkChannelName(message.channel);
    } catch (error) {
      return this.sendError(message.messageId, error as TypedError);
    }
    const channels = (this.channels ??= new SocketChannels(this.context.channels, this.connection, this.context.settings.maxSubscriptions, (eventText) => this.send(eventText)));
    const operation = message.messageType === "subscribe" ? () => channels.subscribe(channel) : () => channels.unsubscribe(channel);
    void this.answerChannelCall(channels, message.messageId, channel, operation);
  }

  private get idle(): boolean {
    return (this.inFlight?.size ?? 0) === 0 && (this.channelCalls?.size ?? 0) === 0;
  }

  /**
   * A subscribe or unsubscribe is in flight as an action is: shutdown waits for it, and answers
   * it itself when it outlasts the grace period (an `authorize` waiting on a slow service).
   */
  private answerChannelCall(channels: SocketChannels, messageId: MessageId, channel: string, operation: () => Promise<object>): Promise<void> {
    const call = {};
    const channelCalls = (this.channelCalls ??= new Map());
    channelCalls.set(call, messageId);
    const failed = (error: unknown) => this.context.logger.error({ err: error, channel, ...this.ids }, "websocket: a channel operation failed");
    return channels.inOrder(channel, async () => {
      try {
        const reply = await operation();
        if (channelCalls.has(call)) this.send(JSON.stringify({ messageId, ...reply }));
      } catch (error) {
        if (channelCalls.has(call)) this.sendError(messageId, error);
      } finally {
        channelCalls.delete(call);
        if (this.idle) this.onIdle?.();
      }
    }, failed);
  }

  /**
   * Runs one action and answers it. An async method rather than a promise chain: this is the path
   * of every message, and each `.then`/`.catch`/`.finally` would allocate a promise and a closure.
   */
  private async runAction(messageId: MessageId, action: string, params: Record<string, unknown>, idempotencyKey: string | undefined): Promise<void> {
    // The call's own controller goes to the dispatcher, which aborts it on timeout; the socket aborts it on close.
    const controller = new AbortController();
    const inFlight = (this.inFlight ??= new Map());
    inFlight.set(controller, messageId);
    try {
      const reload = this.reloadSession();
      if (reload) await reload;
      const options: DispatchOptions = idempotencyKey === undefined ? { controller, logFields: { messageId } } : { controller, logFields: { messageId }, idempotencyKey };
      const { answer, replayed } = await this.context.dispatcher.run(action, params, this.connection, options);
      if (answer.kind === "stream") {
        // Read even when no one is left to send to: reading it to its end or return() ends the call.
        await this.stream(messageId, answer.stream, controller, inFlight);
      } else if (inFlight.has(controller)) {
        this.reply(messageId, answer, replayed === true);
      }
    } catch (error) {
      this.context.logger.error({ err: error, action, ...this.ids, messageId }, "websocket: could not answer an action");
      // The caller still gets an answer to its messageId, so it never waits for one forever.
      try {
        if (inFlight.has(controller)) this.sendError(messageId, error);
      } catch {
        // The socket itself is gone: there is no one left to answer.
      }
    } finally {
      inFlight.delete(controller);
      if (this.idle) this.onIdle?.();
    }
  }

  /**
   * A socket lives long: before each action runs, its session is read again (refreshing its TTL)
   * to see what other connections and processes changed, a sign-out above all: a session that has
   * ended is not used by one more call, however many the socket keeps in flight. The calls that
   * arrive while a read is out share the next one (Session.reload). An anonymous session has no id
   * that another connection could use, so there is nothing to read; unless the store was down when
   * it opened, and the read is retried. Undefined when there is nothing to wait for.
   */
  private reloadSession(): Promise<void> | undefined {
    const session = this.connection.session;
    if (!(session instanceof Session) || (session.id === undefined && !session.unavailable)) return undefined;
    return session.reload().catch(() => undefined);
  }

  /** The call's answer; one given again to a retry with its idempotency key says `"replayed": true`. */
  private reply(messageId: MessageId, answer: Exclude<Answer, { kind: "stream" }>, replayed: boolean): void {
    if (answer.kind === "error") return this.sendBody(messageId, replayed ? { ...answer.body, replayed } : answer.body);
    // Nothing is framed on a socket: every other answer is JSON text.
    const marker = replayed ? `"replayed":true,` : "";
    if (answer.kind === "json") this.send(`{"messageId":${JSON.stringify(messageId)},${marker}"response":${answer.text}}`);
  }

  /**
   * A streaming action's values, each as `{ messageId, chunk }`, each sent before the next is read;
   * then `{ messageId, response: null }`, or the error (its deadline's included), as the one answer
   * every call gets. The call stays in flight meanwhile, so closing the socket or shutting down
   * aborts its signal, which ends the stream; the dispatcher logs how it ended.
   */
  private async stream(messageId: MessageId, stream: DispatchedStream, controller: AbortController, inFlight: Map<AbortController, MessageId>): Promise<void> {
    const prefix = `{"messageId":${JSON.stringify(messageId)},"chunk":`;
    try {
      for await (const text of stream) if (inFlight.has(controller)) await this.sendInOrder(`${prefix}${text}}`);
      if (inFlight.has(controller)) this.send(`{"messageId":${JSON.stringify(messageId)},"response":null}`);
    } catch (thrown) {
      if (inFlight.has(controller)) this.sendBody(messageId, stream.errorBody(thrown));
    }
  }

  /** Sends, and resolves once the text is handed to the network: a stream goes no faster than the socket. */
  private sendInOrder(text: string): Promise<void> {
    if (this.socket.readyState !== WebSocket.OPEN) return Promise.resolve();
    return new Promise((resolve) => {
      this.send(text, () => resolve());
      if (this.socket.readyState !== WebSocket.OPEN) resolve();
    });
  }

  /** Aborts the actions in flight and ends the socket's subscriptions (SocketChannels.close). */
  private async onClose(): Promise<void> {
    for (const controller of this.inFlight?.keys() ?? []) controller.abort(clientLeft());
    await this.channels?.close();
  }

  /** A refusal the socket makes itself, or anything thrown, shown as the dispatcher shows errors. */
  private sendError(messageId: MessageId | undefined, thrown: unknown): void {
    this.sendBody(messageId, this.context.dispatcher.codec.errorBody(thrown));
  }

  private sendBody(messageId: MessageId | undefined, body: ErrorBody & { replayed?: boolean }): void {
    this.send(JSON.stringify(messageId === undefined ? body : { messageId, ...body }));
  }

  /** Writes to the socket, unless the client has stopped reading: then its socket is closed instead. */
  private send(text: string, sent?: () => void): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    if (this.socket.bufferedAmount > this.context.settings.maxBuffered) {
      this.context.logger.warn(
        { ...this.ids, bufferedBytes: this.socket.bufferedAmount },
        "websocket client is not reading what it is sent: closing it",
      );
      this.socket.close(WS_CLOSE_CODE.slowReader, "Send buffer limit exceeded");
      return;
    }
    this.socket.send(text, sent);
  }
}

function toBuffer(data: RawData): Buffer {
  return Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
