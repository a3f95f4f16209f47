import type { ClientActions, ClientActionShape, ClientChannels, OpenChannelName, ParamsArgument, SocketActionName, StreamingActionName } from "./action-types.js";
import { ChunkQueue } from "./chunk-queue.js";
import { errorBodyOf, HeraldClientError, type ClientErrorBody } from "./client-error.js";
import { statusOfErrorType } from "./error-statuses.js";
import { Listeners } from "./listeners.js";
import type { ReconnectOptions } from "./reconnect-delay.js";
import { SocketCalls } from "./socket-calls.js";
import { SocketClosedError } from "./socket-closed-error.js";
import { ReconnectingConnection } from "./socket-connection.js";
import { readServerMessage, type ClientMessage, type ServerMessage } from "./socket-messages.js";

export interface SocketOptions {
  /** The server's WebSocket path (`WS_PATH`); default `/ws`. */
  path?: string;
  /** The waits between attempts to reconnect: from `initialDelayMs` (100 ms), doubling up to `maxDelayMs` (5 s), with jitter. */
  reconnect?: ReconnectOptions;
}

export interface SocketCallOptions {
  /** Aborts the call: it rejects with the signal's reason, and the server's answer, if it still comes, is ignored. */
  signal?: AbortSignal;
  /** Makes a retry safe: a call again with this key and the same params gets the first call's answer, run once (docs/idempotency.md). */
  idempotencyKey?: string;
}

export interface SocketEvents {
  /**
   * Connected: the first time, and again after each reconnection once the server has answered the
   * renewal of every subscription, so what is published from then on arrives (a page reloads what
   * it missed meanwhile here).
   */
  open: () => void;
  /** An open connection closed; the calls in flight on it rejected with SocketClosedError. */
  close: (code: number, reason: string) => void;
  /** The next attempt to connect is due in `delayMs`; `attempt` counts the failed ones since the last open. */
  reconnecting: (attempt: number, delayMs: number) => void;
  /**
   * An error no call waits for: a subscription the server refused to renew after a reconnection
   * (it has ended), or an error the server sent without a messageId (a message over its size limit).
   */
  error: (error: HeraldClientError) => void;
}

/** What a socket call resolves with: a streaming action's answer is null, its values come through `stream`. */
export type SocketCallResult<T extends ClientActionShape> = T extends { streaming: true } ? null : T["outputs"];

export interface HeraldSocket<A extends ClientActions<A>, C extends ClientChannels<C> = {}> {
  /** Calls an action over the socket and resolves with what it returned; an error the server answers rejects as a HeraldClientError. */
  call<N extends SocketActionName<A>>(name: N, ...args: ParamsArgument<A[N]["params"], SocketCallOptions>): Promise<SocketCallResult<A[N]>>;
  /** Calls a streaming action: each value it yields, in order; ends with its answer, or throws its HeraldClientError. */
  stream<N extends StreamingActionName<A>>(name: N, ...args: ParamsArgument<A[N]["params"], SocketCallOptions>): AsyncIterable<A[N]["outputs"]>;
  /**
   * Subscribes to a channel: resolves once the server confirms, after which each message published
   * to it goes to `onMessage`, across reconnections, until the function it resolves with is called.
   * A channel the generated `AppChannels` lists has its messages typed by it.
   */
  subscribe<N extends keyof C & string>(channel: N, onMessage: (message: C[N]["message"]) => void): Promise<() => Promise<void>>;
  /**
   * Subscribes to a channel `AppChannels` does not list by name (one of a RegExp family), or to any
   * without `AppChannels`: its messages are `M`, `unknown` unless given.
   */
  subscribe<M = unknown>(channel: OpenChannelName<C>, onMessage: (message: M) => void): Promise<() => Promise<void>>;
  /** Listens to a presence channel's joins and leaves (of the channels subscribed to); returns the function that stops. */
  onPresence(channel: string, listener: (event: "join" | "leave", presenceKey: string) => void): () => void;
  /** Listens to the connection's events; returns the function that stops. */
  on<E extends keyof SocketEvents>(event: E, listener: SocketEvents[E]): () => void;
  /** Resolves when the socket is connected (at once if it is); rejects with SocketClosedError after `close()`. */
  opened(): Promise<void>;
  /** Closes the socket for good: the calls in flight reject with SocketClosedError and it does not reconnect. */
  close(): void;
}

type ChannelListeners = Record<string, (message: unknown) => void>;
type PresenceListeners = Record<string, (event: "join" | "leave", presenceKey: string) => void>;

/** A socket of `createClient`'s, connected by `connect` to the app's WebSocket endpoint. */
export function openSocket<A extends ClientActions<A>, C extends ClientChannels<C>>(connect: () => WebSocket, reconnect?: ReconnectOptions): HeraldSocket<A, C> {
  const calls = new SocketCalls();
  const events = new Listeners<SocketEvents>();
  const channels = new Listeners<ChannelListeners>();
  const presence = new Listeners<PresenceListeners>();
  const waitingForOpen = new Set<{ resolve(): void; reject(error: unknown): void }>();

  const connection = new ReconnectingConnection(
    connect,
    {
      open(again) {
        for (const waiting of waitingForOpen) waiting.resolve();
        waitingForOpen.clear();
        if (!again) return events.emit("open");
        // The server forgot the old connection's subscriptions: ask for each again.
        void Promise.all([...channels.keys()].map(renew)).then(() => {
          if (connection.isOpen) events.emit("open");
        });
      },
      message(data) {
        const message = readServerMessage(data);
        if (message) receive(message);
      },
      closed(wasOpen, code, reason) {
        calls.failAll(new SocketClosedError("herald/client socket: the connection closed before the answer came"));
        if (wasOpen) events.emit("close", code, reason);
      },
      reconnecting: (attempt, delayMs) => events.emit("reconnecting", attempt, delayMs),
    },
    reconnect,
  );

  function receive(message: ServerMessage): void {
    if (message.messageType === "message") return channels.emit(String(message.channel), message.message);
    if (message.messageType === "presence") return presence.emit(String(message.channel), message.event as "join" | "leave", String(message.presenceKey));
    if (message.messageId !== undefined) return calls.receive(message);
    const body = errorBodyOf(message);
    if (body) events.emit("error", socketError("", body));
  }

  /** Sends a message and gives the wait for its reply; throws at once when the signal has aborted or the socket is not open. */
  function send(message: ClientMessage, signal?: AbortSignal, chunk?: (value: unknown) => void) {
    signal?.throwIfAborted();
    if (!connection.isOpen) throw new SocketClosedError();
    const pending = calls.add(signal, chunk);
    connection.send(JSON.stringify({ ...message, messageId: pending.id }));
    return pending;
  }

  function answerOf(action: string, reply: ServerMessage): unknown {
    const body = errorBodyOf(reply);
    if (body) throw socketError(action, body);
    return reply.response;
  }

  async function call(name: string, params: object = {}, options?: SocketCallOptions): Promise<unknown> {
    const key = options?.idempotencyKey;
    const message: ClientMessage = key === undefined ? { messageType: "action", action: name, params } : { messageType: "action", action: name, params, idempotencyKey: key };
    return answerOf(name, await send(message, options?.signal).reply);
  }

  async function* stream(name: string, params: object = {}, options?: SocketCallOptions): AsyncGenerator<unknown> {
    const chunks = new ChunkQueue<unknown>();
    const pending = send({ messageType: "action", action: name, params }, options?.signal, (value) => chunks.push(value));
    pending.reply.then((reply) => answerOf(name, reply)).then(
      () => chunks.finish(),
      (error: unknown) => chunks.fail(error),
    );
    try {
      yield* chunks.read();
    } finally {
      // A reader that stops early: the server's stream runs on (no message stops one call), unread.
      calls.forget(pending.id);
    }
  }

  /** Asks to (re)subscribe; rejects with the channel's HeraldClientError when refused. */
  async function join(channel: string): Promise<void> {
    const body = errorBodyOf(await send({ messageType: "subscribe", channel }).reply);
    if (body) throw socketError("", body, channel);
  }

  async function renew(channel: string): Promise<void> {
    try {
      await join(channel);
    } catch (error) {
      // Dropped again before the answer: the next reconnection asks again.
      if (!(error instanceof HeraldClientError)) return;
      channels.clear(channel);
      events.emit("error", error);
    }
  }

  async function subscribe(channel: string, onMessage: (message: unknown) => void): Promise<() => Promise<void>> {
    await join(channel);
    channels.add(channel, onMessage);
    let subscribed = true;
    return async () => {
      if (!subscribed) return;
      subscribed = false;
      // Other listeners of the channel keep the subscription; a closed socket has none left to end.
      if (!channels.remove(channel, onMessage) || !connection.isOpen) return;
      const body = errorBodyOf(await send({ messageType: "unsubscribe", channel }).reply);
      if (body) throw socketError("", body, channel);
    };
  }

  return {
    call: call as HeraldSocket<A, C>["call"],
    stream: stream as HeraldSocket<A, C>["stream"],
    subscribe: subscribe as HeraldSocket<A, C>["subscribe"],
    onPresence: (channel, listener) => presence.listen(channel, listener),
    on: (event, listener) => events.listen(event, listener),
    opened() {
      if (connection.isOpen) return Promise.resolve();
      if (connection.isClosed) return Promise.reject(new SocketClosedError());
      return new Promise<void>((resolve, reject) => waitingForOpen.add({ resolve, reject }));
    },
    close() {
      connection.close();
      calls.failAll(new SocketClosedError("herald/client socket: closed"));
      for (const waiting of waitingForOpen) waiting.reject(new SocketClosedError("herald/client socket: closed"));
      waitingForOpen.clear();
    },
  };
}

/** An error the server answered over the socket, with the status HTTP would have given it. */
function socketError(action: string, body: ClientErrorBody, channel?: string): HeraldClientError {
  return new HeraldClientError(action, statusOfErrorType(body.type), body, channel);
}
