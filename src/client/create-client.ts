import type { ClientActions, ClientChannels, HttpActionName, ParamsArgument } from "./action-types.js";
import { errorBodyOf, HeraldClientError, type TypedClientError } from "./client-error.js";
import { planHttpRequest, type ClientRoute } from "./http-request.js";
import { SessionCookies } from "./session-cookies.js";
import { openSocket, type HeraldSocket, type SocketOptions } from "./socket-client.js";
import { socketUrl } from "./socket-url.js";

export interface ClientOptions {
  /** The server's origin, such as `http://127.0.0.1:8080`; `""` in a page served by the app itself. */
  url: string;
  /** The API prefix the server serves actions under (`HTTP_API_PREFIX`); default `/api`. */
  prefix?: string;
  /** Headers sent with every call (an API key, say), or a function giving them per call. */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** fetch's `credentials`; default `same-origin`. A page calling another origin sets `include`. */
  credentials?: RequestCredentials;
  /** The fetch to call; default the global one. */
  fetch?: typeof fetch;
  /** The WebSocket constructor `socket()` opens with; default the global one (browsers, Node.js 22+). */
  WebSocket?: typeof WebSocket;
}

export interface CallOptions {
  /** Aborts the call: the request is cancelled and the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Headers of this call only. */
  headers?: Record<string, string>;
  /** Makes a retry safe: sent as `Idempotency-Key`, a call again with it and the same params gets the first call's answer, run once (docs/idempotency.md). */
  idempotencyKey?: string;
}

export interface HeraldClient<A extends ClientActions<A>, C extends ClientChannels<C> = {}> {
  /**
   * Calls an action over HTTP, at its route and with its method, and resolves with what it
   * returned. An error the server answers rejects as a HeraldClientError; a failure to reach the
   * server rejects with fetch's own error.
   */
  call<N extends HttpActionName<A>>(name: N, ...args: ParamsArgument<A[N]["params"], CallOptions>): Promise<A[N]["outputs"]>;
  /** `error`, typed by the errors `name` declares, when it is a HeraldClientError of a call of `name`; otherwise undefined. */
  errorOf<N extends keyof A & string>(name: N, error: unknown): TypedClientError<A[N]["errors"]> | undefined;
  /** Forgets the session cookies this client kept (outside a browser). */
  forgetSession(): void;
  /**
   * Opens a socket to the app's WebSocket endpoint: the same typed calls, streams and channel
   * subscriptions, reconnecting when the connection drops. Outside a browser it sends the
   * session cookie this client kept, so a sign-in over HTTP holds on the socket.
   */
  socket(options?: SocketOptions): HeraldSocket<A, C>;
}

interface RoutesDocument {
  prefix: string;
  actions: Record<string, ClientRoute>;
}

/**
 * A client of a Herald app, typed by the module `herald generate client-types` writes:
 * `createClient<AppActions, AppChannels>({ url })` (`AppChannels` types the socket's channel
 * messages; without it they are `unknown`). It fetches the app's routes (`<prefix>/routes.json`) at its
 * first call, and keeps the session cookie outside a browser.
 */
export function createClient<A extends ClientActions<A>, C extends ClientChannels<C> = {}>(options: ClientOptions): HeraldClient<A, C> {
  const origin = options.url.replace(/\/+$/, "");
  const prefix = normalizePrefix(options.prefix ?? "/api");
  const send = options.fetch ?? globalThis.fetch.bind(globalThis);
  const cookies = new SessionCookies();
  let routes: Promise<RoutesDocument> | undefined;

  const headersFor = (call: CallOptions | undefined, json: boolean): Record<string, string> => {
    const shared = typeof options.headers === "function" ? options.headers() : options.headers;
    const cookie = cookies.header();
    return {
      accept: "application/json",
      ...(json ? { "content-type": "application/json" } : {}),
      ...(cookie ? { cookie } : {}),
      ...shared,
      ...call?.headers,
      ...(call?.idempotencyKey === undefined ? {} : { "idempotency-key": call.idempotencyKey }),
    };
  };

  const loadRoutes = (signal: AbortSignal | undefined): Promise<RoutesDocument> => {
    routes ??= (async () => {
      const response = await send(`${origin}${prefix}/routes.json`, { headers: { accept: "application/json" }, credentials: options.credentials ?? "same-origin", ...(signal ? { signal } : {}) });
      if (!response.ok) throw new Error(`The server at ${origin || "this origin"} lists no routes at ${prefix}/routes.json (HTTP ${response.status})`);
      return (await response.json()) as RoutesDocument;
    })();
    // A failed fetch is not kept: the next call asks again.
    routes.catch(() => (routes = undefined));
    return routes;
  };

  async function call(name: string, params: object = {}, callOptions?: CallOptions): Promise<unknown> {
    callOptions?.signal?.throwIfAborted();
    const document = await loadRoutes(callOptions?.signal);
    const route = document.actions[name];
    if (!route) throw new TypeError(`${name}: the server serves no HTTP route for this action`);
    const plan = planHttpRequest(name, route, origin, document.prefix, params as Record<string, unknown>);
    const response = await send(plan.url, {
      method: plan.method,
      headers: headersFor(callOptions, plan.body !== undefined),
      credentials: options.credentials ?? "same-origin",
      ...(plan.body === undefined ? {} : { body: plan.body }),
      ...(callOptions?.signal ? { signal: callOptions.signal } : {}),
    });
    cookies.take(response.headers);
    const text = await response.text();
    const body = isJson(response) && text ? parseJson(text) : text;
    if (response.ok) return body;
    const errorBody = errorBodyOf(body);
    if (errorBody) throw new HeraldClientError(name, response.status, errorBody);
    throw new Error(`${name}: the server answered HTTP ${response.status} without Herald's error body`);
  }

  return {
    call: call as HeraldClient<A, C>["call"],
    errorOf: (name, error) => (error instanceof HeraldClientError && error.action === name ? (error as never) : undefined),
    forgetSession: () => cookies.clear(),
    socket: (socketOptions = {}) => {
      const url = socketUrl(origin, socketOptions.path ?? "/ws");
      const WebSocketClass = options.WebSocket ?? globalThis.WebSocket;
      if (!WebSocketClass) throw new TypeError("herald/client: this runtime has no global WebSocket; pass one as createClient({ WebSocket })");
      const connect = () => {
        // Read at each connection, so that a reconnection carries the latest sign-in's session.
        const cookie = cookies.header();
        // Only outside a browser is a cookie kept here, and only there does WebSocket take
        // headers (Node.js's, the ws package's): an object in place of the protocols.
        return cookie ? new WebSocketClass(url, { headers: { cookie } } as never) : new WebSocketClass(url);
      };
      return openSocket<A, C>(connect, socketOptions.reconnect);
    },
  };
}

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+|\/+$/g, "");
  return trimmed ? `/${trimmed}` : "";
}

function isJson(response: Response): boolean {
  return /\bjson\b/i.test(response.headers.get("content-type") ?? "");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
