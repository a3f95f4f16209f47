import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { injectable } from "tsyringe";
import { WebSocket, WebSocketServer } from "ws";
import { ChannelSubscriptions } from "../../channels/channel-subscriptions";
import { pathOfUrl, writeAccessLine } from "../../core/access-log";
import { Connection, flattenHeaders } from "../../core/connection";
import { addressKey } from "../../core/caller-address";
import { CONNECTION_TYPE, RUN_MODE } from "../../core/constants";
import { ErrorType, TypedError } from "../../core/errors";
import type { Initializer } from "../../core/initializer";
import { isLevelOn } from "../../core/logger";
import { REQUEST_ID_HEADER, requestIdFrom } from "../../core/request-id";
import { HeraldServer } from "../../core/server";
import type { Session } from "../../sessions/session";
import { SessionManager } from "../../sessions/session-manager";
import { AddressBackoff } from "./address-backoff";
import { AddressMessageBudgets } from "./address-budgets";
import { WS_CLOSE_CODE } from "./close-codes";
import { judgeOrigin } from "./origin-policy";
import { readWebSocketSettings, WebSocketSettings } from "./settings";
import { SocketClient, type SocketClientContext } from "./socket-client";
import { refuseUpgrade } from "./upgrade-refusal";
import { shuttingDown } from "../../core/shutting-down";

/** No semantic convention counts a WebSocket server's connections. */
export const METRIC_WEBSOCKET_OPEN_CONNECTIONS = "herald.websocket.open_connections";

/**
 * The WebSocket transport: upgrades at WS_PATH on the web server's port, after an Origin check,
 * with the session of the HTTP session cookie, and serves each socket as a SocketClient.
 */
@injectable()
export class WebSocketInitializer implements Initializer {
  readonly name = "websocket";
  readonly runModes = [RUN_MODE.server];
  /** Starts once the web server listens (it shares its port) and stops before it. */
  readonly dependsOn = ["web", "channels"];
  private settings!: WebSocketSettings;
  private wss: WebSocketServer | undefined;
  private httpServer: Server | undefined;
  private readonly clients = new Set<SocketClient>();
  /** The Set-Cookie that refreshes (or clears) the session cookie, per upgrade request. */
  private readonly upgradeCookies = new WeakMap<IncomingMessage, string>();
  /** Each upgrade request's id and when it came in, for its answer's X-Request-Id and its access line. */
  private readonly upgrades = new WeakMap<IncomingMessage, UpgradeRequest>();
  private socketContext: SocketClientContext | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private closing = false;
  private channels!: ChannelSubscriptions;
  private sessions: SessionManager | undefined;
  /** Opens a socket's anonymous session when an action first reads it: one function for every socket, most of which never do. */
  private anonymousSession: (() => Session) | undefined;
  private budgets!: AddressMessageBudgets;
  private backoff!: AddressBackoff;

  constructor(private readonly server: HeraldServer) {}

  /** How many sockets are open. */
  get clientCount(): number {
    return this.clients.size;
  }

  initialize(): void {
    this.settings = readWebSocketSettings(this.server.config);
    this.server.entryPoints.websocket = this.settings.path;
    this.budgets = new AddressMessageBudgets(this.settings.maxMessagesPerSecond);
    this.backoff = new AddressBackoff(this.settings.floodBackoff);
  }

  start(): void {
    const httpServer = this.server.httpServer;
    if (!httpServer) {
      throw new TypedError({ message: "The WebSocket transport needs the web server, which is not listening", type: ErrorType.SERVER_START });
    }
    this.closing = false;
    this.server.metrics.meter
      ?.createObservableUpDownCounter(METRIC_WEBSOCKET_OPEN_CONNECTIONS, { unit: "{connection}", description: "Open WebSocket connections" })
      .addCallback((result) => result.observe(this.clients.size));
    const { container } = this.server;
    this.channels = container.resolve(ChannelSubscriptions);
    // Sessions are optional: an app may run without the sessions initializer's SessionManager.
    this.sessions = container.isRegistered(SessionManager, true) ? container.resolve(SessionManager) : undefined;
    const sessions = this.sessions;
    this.anonymousSession = sessions ? () => sessions.anonymous() : undefined;
    const wss = new WebSocketServer({ noServer: true, maxPayload: this.settings.maxFrameSize, clientTracking: false, perMessageDeflate: false });
    wss.on("headers", (headers: string[], request: IncomingMessage) => {
      const cookie = this.upgradeCookies.get(request);
      if (cookie) headers.push(`Set-Cookie: ${cookie}`);
      const upgrade = this.upgrades.get(request);
      if (upgrade) headers.push(`${REQUEST_ID_HEADER}: ${upgrade.requestId}`);
    });
    this.wss = wss;
    this.httpServer = httpServer;
    httpServer.on("upgrade", this.onUpgrade);
    if (this.settings.pingInterval > 0) {
      this.pingTimer = setInterval(() => {
        for (const client of this.clients) client.heartbeat();
      }, this.settings.pingInterval).unref();
    }
  }

  /** Stops accepting sockets, lets each finish its actions in flight (bounded), and closes it with 1001. */
  async stop(): Promise<void> {
    this.closing = true;
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    await Promise.all([...this.clients].map((client) => client.shutdown(this.settings.shutdownTimeout)));
    this.httpServer?.off("upgrade", this.onUpgrade);
    this.httpServer = undefined;
    this.wss?.close();
    this.wss = undefined;
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const upgrade = { requestId: requestIdFrom(request.headers["x-request-id"]), started: performance.now() };
    if (pathOfUrl(request.url) !== this.settings.path) {
      // Another part may serve upgrades on its own path; when none does, say so rather than hang.
      if (this.httpServer?.listenerCount("upgrade") === 1) {
        this.refuse(request, socket, upgrade, new TypedError({ message: "Not found", type: ErrorType.CONNECTION_NOT_FOUND }));
      }
      return;
    }
    this.upgrades.set(request, upgrade);
    socket.on("error", ignoreSocketError);
    this.upgrade(request, socket, head, upgrade).catch((error: unknown) => {
      this.server.logger.error({ err: error, requestId: upgrade.requestId }, "websocket upgrade failed");
      socket.destroy();
    });
  };

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, upgrade: UpgradeRequest): Promise<void> {
    if (this.closing) return this.refuse(request, socket, upgrade, shuttingDown());
    const remoteAddress = this.server.callerAddress(request);
    const retryAfter = this.backoff.retryAfter(addressKey(remoteAddress));
    if (retryAfter !== undefined) return this.refuse(request, socket, upgrade, backedOff(retryAfter), { "Retry-After": String(retryAfter) });
    const verdict = judgeOrigin(request, this.settings.allowedOrigins);
    if (!verdict.accepted) {
      const error = new TypedError({ message: "This origin may not open a WebSocket here", type: ErrorType.CONNECTION_FORBIDDEN, key: "origin" });
      return this.refuse(request, socket, upgrade, error);
    }
    const session = await this.openSession(request, verdict.withSession);
    const wss = this.wss;
    if (this.closing || !wss) return this.refuse(request, socket, upgrade, shuttingDown());
    wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws, request, remoteAddress, session, upgrade));
  }

  /** Answers an upgrade with an error, and logs it as a request that is not an action call. */
  private refuse(request: IncomingMessage, socket: Duplex, upgrade: UpgradeRequest, error: TypedError, headers: Record<string, string> = {}): void {
    refuseUpgrade(socket, error, this.server.codec, { ...headers, [REQUEST_ID_HEADER]: upgrade.requestId });
    this.logUpgrade(request, upgrade, error.status);
  }

  private logUpgrade(request: IncomingMessage, upgrade: UpgradeRequest, status: number): void {
    const { requestId, started } = upgrade;
    writeAccessLine(this.server.logger, { method: request.method, path: pathOfUrl(request.url), status, durationMs: performance.now() - started, requestId });
  }

  /** The session of the cookie the upgrade carries, when its origin may use it; none otherwise (see anonymousSession). */
  private async openSession(request: IncomingMessage, withCookie: boolean): Promise<Session | undefined> {
    const manager = this.sessions;
    if (!manager || !withCookie || request.headers.cookie === undefined) return undefined;
    const session = await manager.fromCookieHeader(request.headers.cookie);
    const change = manager.cookieChange(session);
    if (change.kind !== "none") this.upgradeCookies.set(request, change.header);
    return session;
  }

  private accept(ws: WebSocket, request: IncomingMessage, remoteAddress: string | undefined, session: Session | undefined, upgrade: UpgradeRequest): void {
    this.logUpgrade(request, upgrade, 101);
    const connection = new Connection({
      type: CONNECTION_TYPE.websocket,
      requestId: upgrade.requestId,
      ...(remoteAddress ? { remoteAddress } : {}),
      ...(session ? { session } : this.anonymousSession ? { openSession: this.anonymousSession } : {}),
      headers: flattenHeaders(request.headers, HANDSHAKE_HEADERS),
    });
    // One context for every socket: a socket keeps only what is its own.
    this.socketContext ??= {
      dispatcher: this.server.dispatcher,
      channels: this.channels,
      settings: this.settings,
      logger: this.server.logger,
      budgets: this.budgets,
      backoff: this.backoff,
      ended: (client) => this.clients.delete(client),
    };
    const client = new SocketClient(ws, connection, this.socketContext);
    this.clients.add(client);
    // Guarded: building the fields would spell out the connection's id, which an idle socket need not hold.
    if (isLevelOn(this.server.logger, "debug")) this.server.logger.debug({ connectionId: connection.id, requestId: upgrade.requestId, remoteAddress }, "websocket connected");
    if (this.closing) ws.close(WS_CLOSE_CODE.goingAway, "Server shutting down");
  }
}

/**
 * A function of its own rather than a closure in the upgrade handler: a closure there would keep
 * the handler's scope (the upgrade's id and the socket) for as long as the socket lives.
 */
const ignoreSocketError = (): void => undefined;

/**
 * The upgrade's headers that only carry the handshake itself: no middleware has a use for them once
 * the socket is open, and a socket would keep them (about 200 bytes) for its whole life.
 */
const HANDSHAKE_HEADERS: ReadonlySet<string> = new Set(["connection", "upgrade", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions"]);

interface UpgradeRequest {
  requestId: string;
  started: number;
}

function backedOff(retryAfter: number): TypedError {
  return new TypedError({
    message: `A socket from this address was closed for sending too many messages: it may connect again in ${retryAfter} s`,
    type: ErrorType.CONNECTION_RATE_LIMITED,
    value: { retryAfter },
  });
}
