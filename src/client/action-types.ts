/**
 * The shape of the module `herald generate client-types` writes: one entry an action. Plain types
 * only, so the client needs nothing of the server at run time.
 */

/** One error an action may end with: its `ErrorType`, its HTTP status and, when declared, its `value`. */
export interface ClientErrorShape {
  type: string;
  status: number;
  value?: unknown;
}

/** One action, as a client sees it. */
export interface ClientActionShape {
  /** What the caller sends: the input side of the action's `inputs` (defaults optional). */
  params: object;
  /** What the caller receives: the JSON of the action's `outputs` (`unknown` without). */
  outputs: unknown;
  /** Every error the action declares, Herald's own for its shape included. */
  errors: ClientErrorShape;
  /** The transports that serve it. */
  transports: string;
  /** Its HTTP method and route, when it is served over HTTP. */
  http?: { method: string; route: string };
  /** Present on a streaming action, whose `outputs` describe each value it yields. */
  streaming?: true;
}

/** What `createClient` takes as its type argument: the generated `AppActions`. */
export type ClientActions<A> = { [N in keyof A]: ClientActionShape };

/** One channel, as a client sees it: what is published on it, and whether it reports presence. */
export interface ClientChannelShape {
  message: unknown;
  presence: boolean;
}

/** What `createClient` takes as its second type argument: the generated `AppChannels`. */
export type ClientChannels<C> = { [N in keyof C]: ClientChannelShape };

/**
 * The names a channel not listed by name may have: any, without `AppChannels` or when the app has
 * a channel family named by a RegExp (the generated module then has an index signature); none
 * when every channel of the app is listed, so that a misspelt name does not compile.
 */
export type OpenChannelName<C> = {} extends C ? string : string extends keyof C ? string : never;

/** The names of the actions the client may call over HTTP. */
export type HttpActionName<A extends ClientActions<A>> = {
  [N in keyof A & string]: "web" extends A[N]["transports"] ? (A[N]["http"] extends object ? N : never) : never;
}[keyof A & string];

/** The names of the actions the client may call over WebSocket. */
export type SocketActionName<A extends ClientActions<A>> = {
  [N in keyof A & string]: "websocket" extends A[N]["transports"] ? N : never;
}[keyof A & string];

/** The names of the streaming actions the client may call over WebSocket, one value at a time. */
export type StreamingActionName<A extends ClientActions<A>> = {
  [N in SocketActionName<A>]: A[N] extends { streaming: true } ? N : never;
}[SocketActionName<A>];

/** The params argument: optional when every param is. */
export type ParamsArgument<P, Options> = {} extends P ? [params?: P, options?: Options] : [params: P, options?: Options];
