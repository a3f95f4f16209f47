import type { IncomingHttpHeaders } from "node:http";
import { addressKey } from "./caller-address";
import { askCaller, type CallerInput } from "./caller-input";
import { CONNECTION_TYPE } from "./constants";
import type { Answers, QuestionKind, Questions, RawAnswer } from "./questions";
import { nextUniqueNumber, uniqueIdOf } from "./unique-id";

/** Session state bound to a connection; the HTTP and WebSocket transports provide it. */
export interface ConnectionSession {
  readonly id: string | undefined;
  get<T = unknown>(key: string): T | undefined;
  /** A copy of every key and value. */
  all(): Record<string, unknown>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  destroy(): Promise<void>;
  regenerate(): Promise<void>;
  /** Records the session as one of `owner`'s (a user's id), for `destroyOthersOf`; call it again after `regenerate`. */
  own(owner: string | number): Promise<void>;
  /** Ends every other session recorded for `owner` (signed in elsewhere), and records this one as theirs. */
  destroyOthersOf(owner: string | number): Promise<void>;
}

/** MCP's (syslog's) levels, lowest first. */
export type CallerLogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** Where a transport sends the log messages an action addresses to its caller (MCP `notifications/message`). */
export type LogReporter = (level: CallerLogLevel, data: unknown) => Promise<void> | void;

/** A verified OAuth access token a call came with (MCP over HTTP, when an authorization server is configured). */
export interface ConnectionAuth {
  /** The user the token stands for (`sub`), when it names one. */
  subject?: string;
  clientId: string;
  scopes: readonly string[];
  /** Seconds since the epoch. */
  expiresAt?: number;
  /** Every claim of a JWT, or what introspection said of an opaque token. */
  claims: Readonly<Record<string, unknown>>;
}

/** Where a transport sends an action's progress (MCP progress notifications, for one). */
export type ProgressReporter = (update: { progress: number; total?: number; message?: string }) => Promise<void> | void;

export interface ConnectionInit {
  type: CONNECTION_TYPE;
  id?: string;
  remoteAddress?: string;
  requestId?: string;
  session?: ConnectionSession;
  /**
   * Makes the connection's session when something first reads it, instead of `session`: for a
   * transport whose connections mostly never use theirs (an idle socket's anonymous session). One
   * function for every connection, so that holding it costs a connection nothing.
   */
  openSession?: () => ConnectionSession;
  /** Request headers as the transport received them (HTTP request, WebSocket upgrade, MCP over HTTP), lower-cased. */
  headers?: Readonly<Record<string, string | undefined>>;
  /** Node's request headers, flattened into `headers` only if something reads them. */
  incomingHeaders?: IncomingHttpHeaders;
  progressReporter?: ProgressReporter;
  logReporter?: LogReporter;
  auth?: ConnectionAuth;
  /** The answers a call came with, where the transport can ask its caller for input (MCP 2026-07-28); see ask. */
  callerInput?: CallerInput;
  /** Where the caller cannot be asked, why not, for the refusal: "over http" by default. */
  cannotAsk?: string;
}

let readResponseHeadersIfSet: (connection: Connection) => Record<string, string> | undefined;
let readAnswered: (connection: Connection) => Readonly<Record<string, RawAnswer>>;
let readSessionIfOpened: (connection: Connection) => ConnectionSession | undefined;

/** The answers a call's `ask` has read so far: for a call whose run goes on elsewhere (an MCP task's job), which must not ask them again. */
export function answersRead(connection: Connection): Readonly<Record<string, RawAnswer>> {
  return readAnswered(connection);
}

/** The response headers a call set, without making the record when it set none: for the HTTP transport. */
export function responseHeadersIfSet(connection: Connection): Record<string, string> | undefined {
  return readResponseHeadersIfSet(connection);
}

/** The connection's session, without opening one that nothing has read yet (ConnectionInit.openSession): for the transports. */
export function sessionIfOpened(connection: Connection): ConnectionSession | undefined {
  return readSessionIfOpened(connection);
}

/** The transport-independent view of where a call came from, given to `run` and to middleware. */
export class Connection {
  /** The id given, or the number of the one made for it, spelt out when first read: an idle socket need not hold the string. */
  #id: string | number;
  readonly type: CONNECTION_TYPE;
  readonly remoteAddress?: string;
  readonly requestId?: string;
  readonly createdAt = Date.now();
  #session: ConnectionSession | (() => ConnectionSession) | undefined;
  #headers: Readonly<Record<string, string | undefined>> | undefined;
  readonly #incomingHeaders: IncomingHttpHeaders | undefined;
  /** The verified access token of the call, where the transport checked one (MCP with OAuth); see docs/mcp.md. */
  readonly auth?: ConnectionAuth;
  /** Set per call by transports that can carry progress; see reportProgress. */
  progressReporter: ProgressReporter | undefined;
  /** Set per call by transports that can carry log messages to the caller; see reportLog. */
  logReporter: LogReporter | undefined;
  // The records below are made on first use: an object without a prototype is a hash table, and
  // most calls never touch them.
  #state: Record<string, unknown> | undefined;
  #responseHeaders: Record<string, string> | undefined;
  readonly #callerInput: CallerInput | undefined;
  readonly #cannotAsk: string | undefined;
  /** What ask has read so far in this call, for the retry that brings the rest; made by the first ask. */
  #answered: Record<string, RawAnswer> | undefined;
  #addressKey: string | undefined;

  constructor(init: ConnectionInit) {
    this.#id = init.id ?? nextUniqueNumber();
    this.type = init.type;
    if (init.remoteAddress !== undefined) this.remoteAddress = init.remoteAddress;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    this.#session = init.session ?? init.openSession;
    this.#headers = init.headers;
    this.#incomingHeaders = init.incomingHeaders;
    this.progressReporter = init.progressReporter;
    this.logReporter = init.logReporter;
    if (init.auth !== undefined) this.auth = init.auth;
    this.#callerInput = init.callerInput;
    this.#cannotAsk = init.cannotAsk;
  }

  /** The connection's session, where the transport has sessions (HTTP, WebSocket, MCP over HTTP). */
  get session(): ConnectionSession | undefined {
    if (typeof this.#session === "function") this.#session = this.#session();
    return this.#session;
  }

  set session(session: ConnectionSession | undefined) {
    this.#session = session;
  }

  /** Unique across processes: the transport's id (a job's), or one made for the connection. */
  get id(): string {
    if (typeof this.#id === "number") this.#id = uniqueIdOf(this.#id);
    return this.#id;
  }

  /** Per-connection state for middleware and actions, such as the authenticated user. */
  get state(): Record<string, unknown> {
    return (this.#state ??= Object.create(null) as Record<string, unknown>);
  }

  /**
   * Headers for the HTTP response of this call, set by middleware or the action (rate-limit
   * counters, for one). The HTTP transport writes them, except on a `Response` the action
   * returned; the other transports have no headers and ignore them.
   */
  get responseHeaders(): Record<string, string> {
    return (this.#responseHeaders ??= Object.create(null) as Record<string, string>);
  }

  static {
    readResponseHeadersIfSet = (connection) => connection.#responseHeaders;
    readAnswered = (connection) => ({ ...connection.#answered });
    readSessionIfOpened = (connection) => (typeof connection.#session === "function" ? undefined : connection.#session);
  }

  /**
   * The key every per-address limit counts this caller under: `remoteAddress`, with an IPv6
   * address taken as its /64 and an IPv4-mapped one as its IPv4 address (see addressKey).
   */
  get addressKey(): string | undefined {
    return (this.#addressKey ??= addressKey(this.remoteAddress));
  }

  /** The request headers, one string per lower-case name; empty where the transport has none. */
  get headers(): Readonly<Record<string, string | undefined>> {
    return (this.#headers ??= this.#incomingHeaders ? flattenHeaders(this.#incomingHeaders) : {});
  }

  /** Reports progress of a long action to a caller that asked for it; a no-op elsewhere. */
  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    await this.progressReporter?.({ progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) });
  }

  /**
   * Sends a log message to the caller, where the transport carries them (MCP
   * `notifications/message`, at the level the client asked for); a no-op elsewhere. The server's
   * own log is `Logger`'s.
   */
  async reportLog(level: CallerLogLevel, data: unknown): Promise<void> {
    await this.logReporter?.(level, data);
  }

  /**
   * Asks the caller for input — a form, a completion of its model, its roots — and resolves with
   * one answer per key. Where the call did not bring every answer, it rejects with a
   * `CONNECTION_INPUT_REQUIRED` error, to let through, that ends the call: over MCP 2026-07-28 the
   * client answers and calls again, and the action runs again from the start, so an action asks
   * before it changes anything. A transport that cannot ask refuses with a 422 naming the keys
   * (docs/actions.md).
   */
  ask<const Q extends Questions>(questions: Q): Promise<Answers<Q>> {
    return askCaller(this.#callerInput, questions, (this.#answered ??= Object.create(null) as Record<string, RawAnswer>), this.#cannotAsk ?? `over ${this.type}`);
  }

  /** Whether the caller can be asked this kind of question: false wherever ask refuses. */
  canAsk(kind: QuestionKind): boolean {
    return this.#callerInput?.canAnswer(kind) ?? false;
  }

  /** The bearer token of an `Authorization: Bearer …` header, if any. */
  get bearerToken(): string | undefined {
    const match = /^Bearer\s+(.+)$/i.exec(this.headers.authorization ?? "");
    return match?.[1]?.trim();
  }
}

/** Node's request headers as a connection carries them: one string per (lower-case) name. */
export function flattenHeaders(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
  omitted?: ReadonlySet<string>,
): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lowerCase = name.toLowerCase();
    if (!omitted?.has(lowerCase)) flat[lowerCase] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}
