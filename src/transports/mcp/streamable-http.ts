import type { IncomingMessage, ServerResponse } from "node:http";
import { createMcpHandler, type AuthInfo, type McpHandlerRequestOptions, type McpHttpHandler, type Server } from "@modelcontextprotocol/server";
import { toNodeHandler, type NodeMcpRequestHandler } from "@modelcontextprotocol/node";
import type { CallerAddress } from "../../core/caller-address";
import { Connection, type ConnectionAuth, type ConnectionSession } from "../../core/connection";
import { CONNECTION_TYPE } from "../../core/constants";
import type { ResponseCodec } from "../../core/response-codec";
import { ErrorType, TypedError } from "../../core/errors";
import type { Logger } from "../../core/logger";
import { REQUEST_ID_HEADER } from "../../core/request-id";
import type { McpCatalog } from "./catalog";
import { envelopeRefusal } from "./envelope-bounds";
import { paramHeaderMismatch } from "./param-headers";
import { InFlightCalls } from "./in-flight-calls";
import { ListenStreamsPerCaller } from "./listen-streams-per-caller";
import { connectionAuthOf, writeWebResponse, type McpResourceServer } from "./oauth/resource-server";
import { requestCaller } from "./request-caller";
import { rebindingRefusal } from "./request-guard";
import { ResourceListens, type AppChannels } from "./resource-listens";
import type { McpSettings } from "./settings";

/**
 * A server error in JSON-RPC's own range, as the other refusals here; the SDK answers its own
 * bound on all streams with -32603, an internal error, which tells the client nothing.
 */
const LISTEN_BOUND_ERROR_CODE = -32000;

/** The first revision whose clients mirror `x-mcp-header` inputs into `Mcp-Param-*` headers; revisions are dates, compared as text. */
const PARAM_HEADERS_SINCE = "2026-07-28";

/** The id of a lone JSON-RPC request, for an error answered before the SDK reads it. */
function requestIdOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | undefined)?.id;
  return !Array.isArray(body) && (typeof id === "string" || typeof id === "number") ? id : null;
}

function replyJsonRpcError(
  response: ServerResponse,
  status: number,
  error: { code: number; message: string; data?: unknown },
  id: string | number | null,
): void {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", id, error }));
}

/** The tool a lone `tools/call` names, when it asked for no progress (whose notifications could go out before the result). */
function signInCandidate(body: unknown): string | undefined {
  const call = body as { method?: unknown; params?: { name?: unknown; _meta?: { progressToken?: unknown } } } | undefined;
  if (Array.isArray(body) || call?.method !== "tools/call" || typeof call.params?.name !== "string") return undefined;
  return call.params._meta?.progressToken === undefined ? call.params.name : undefined;
}

/** The resource URIs a `subscriptions/listen` request asks to be told about (none, for other notifications), if it is one. */
function listenedResources(body: unknown): string[] | undefined {
  const request = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | undefined;
  if (Array.isArray(body) || request?.method !== "subscriptions/listen") return undefined;
  const uris = request.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === "string") : [];
}

/**
 * Serves MCP's Streamable HTTP transport through the SDK's handler, statelessly: a
 * 2026-07-28 request (per-request `_meta`, `server/discover`, `subscriptions/listen`) and a
 * 2025-era one alike get a server of their own, so any process answers any request and nothing
 * per client stays in memory. GET and DELETE, the 2025 session operations, are answered 405.
 */
export class StreamableHttpEndpoint {
  private readonly handler: McpHttpHandler;
  private readonly serve: NodeMcpRequestHandler;
  /** For a lone tool call without a token, with OAuth: the answer is read whole before it is sent, so it can become a 401. */
  private readonly serveChallengeable: NodeMcpRequestHandler;
  private readonly listens: ResourceListens;
  private readonly listenStreams: ListenStreamsPerCaller;
  readonly inFlight = new InFlightCalls();

  constructor(
    createServer: () => Server,
    private readonly catalog: McpCatalog,
    private readonly settings: McpSettings,
    private readonly herald: { config: { host: string }; codec: ResponseCodec; logger: Logger; callerAddress: CallerAddress },
    channels: () => AppChannels | undefined,
    private readonly resourceServer?: McpResourceServer,
  ) {
    const { logger } = herald;
    const onerror = (error: Error) => logger.debug({ err: error, requestId: requestCaller.getStore()?.requestId }, "mcp: request refused or failed in the SDK");
    this.handler = createMcpHandler(() => createServer(), { legacy: "stateless", onerror, maxSubscriptions: settings.maxSubscriptions });
    this.serve = toNodeHandler(this.handler, { onerror });
    this.serveChallengeable = toNodeHandler({ fetch: (request, options) => this.answerOrChallenge(request, options) }, { onerror });
    this.listens = new ResourceListens(catalog, channels, (uri) => this.handler.notify.resourceUpdated(uri), logger);
    this.listenStreams = new ListenStreamsPerCaller(settings.maxSubscriptionsPerCaller);
  }

  private get boundHost(): string {
    return this.herald.config.host;
  }

  private callerAddress(request: IncomingMessage): string | undefined {
    return this.herald.callerAddress(request);
  }

  async handle(request: IncomingMessage & { body?: unknown }, response: ServerResponse): Promise<void> {
    // Set by the web server's request start, which every mount's request goes through.
    const header = response.getHeader(REQUEST_ID_HEADER);
    const requestId = typeof header === "string" ? header : undefined;
    const refusal = rebindingRefusal(request, {
      boundHost: this.boundHost,
      hosts: this.settings.allowedHosts,
      origins: this.settings.allowedOrigins,
    });
    if (refusal) {
      replyJsonRpcError(response, 403, { code: -32000, message: refusal }, requestIdOf(request.body));
      return;
    }
    const protocolVersion = request.headers["mcp-protocol-version"];
    const malformed = request.method === "POST" ? envelopeRefusal(request.body, typeof protocolVersion === "string" ? protocolVersion : undefined) : undefined;
    if (malformed) {
      // -32600, Invalid Request, with no id: the id is what may be wrong.
      replyJsonRpcError(response, 400, { code: -32600, message: malformed }, null);
      return;
    }
    const mismatch = this.paramHeaderMismatch(request);
    if (mismatch) {
      // As the SDK answers its own header checks: -32020, HeaderMismatch.
      replyJsonRpcError(response, 400, { code: -32020, message: `Bad Request: the request headers and body disagree: ${mismatch.body}`, data: { mismatch } }, requestIdOf(request.body));
      return;
    }
    const auth = this.resourceServer ? await this.checkToken(this.resourceServer, request, response) : undefined;
    if (auth === false) return;
    const remoteAddress = this.callerAddress(request);
    const caller = InFlightCalls.callerOf(remoteAddress, request.headers);
    this.inFlight.cancelNamedIn(caller, request.body);
    const listened = listenedResources(request.body);
    if (listened && !this.countListen(request, response, remoteAddress, auth)) return;
    if (listened?.length && !(await this.openListen(listened, request, response, { remoteAddress, auth, requestId }))) return;
    const signInFor = this.resourceServer && !auth ? signInCandidate(request.body) : undefined;
    const session = (request as { auth?: AuthInfo }).auth?.extra?.session as ConnectionSession | undefined;
    const context = {
      requestId,
      response,
      remoteAddress,
      headers: request.headers,
      inFlight: this.inFlight.forCaller(caller),
      ...(auth ? { auth } : {}),
      ...(session ? { session } : {}),
      ...(signInFor ? { signIn: { needed: false, tool: signInFor } } : {}),
    };
    const serve = signInFor ? this.serveChallengeable : this.serve;
    await requestCaller.run(context, () => serve(request, response, request.body));
  }

  /** For a lone `tools/call` of a tool with `x-mcp-header` inputs: how its `Mcp-Param-*` headers disagree with its arguments. */
  private paramHeaderMismatch(request: IncomingMessage & { body?: unknown }) {
    const call = request.body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | undefined;
    if (request.method !== "POST" || Array.isArray(request.body) || call?.method !== "tools/call" || typeof call.params?.name !== "string") return undefined;
    // The headers are 2026-07-28's (SEP-2243): an earlier client sends none, and owes none.
    const version = request.headers["mcp-protocol-version"];
    if (typeof version !== "string" || version < PARAM_HEADERS_SINCE) return undefined;
    const declarations = this.catalog.tools.get(call.params.name)?.paramHeaders;
    return declarations?.length ? paramHeaderMismatch(declarations, call.params.arguments, request.headers) : undefined;
  }

  /**
   * The request's verified access token (undefined without one), or false once a challenge has
   * answered it: an invalid token, or a call that needs scopes the caller has not got.
   */
  private async checkToken(
    resourceServer: McpResourceServer,
    request: IncomingMessage & { body?: unknown; auth?: AuthInfo },
    response: ServerResponse,
  ): Promise<ConnectionAuth | undefined | false> {
    const verified = await resourceServer.authenticate(request.headers.authorization, request.headers.host);
    if (verified instanceof Response) return writeWebResponse(response, verified).then(() => false as const);
    const needed = this.catalog.scopesNeededBy(request.body);
    const challenge = needed && resourceServer.challengeFor(needed.name, needed.scopes, verified, request.headers.host);
    if (challenge) return writeWebResponse(response, challenge).then(() => false as const);
    if (!verified) return undefined;
    // toNodeHandler hands `request.auth` to the SDK, as ctx.http.authInfo.
    request.auth = verified;
    return connectionAuthOf(verified);
  }

  /**
   * Counts a listen stream against its caller until its response closes, or answers it with a
   * JSON-RPC error when the caller already holds as many as it may: before the SDK's own bound on
   * all streams, which a single caller could otherwise fill.
   */
  private countListen(
    request: IncomingMessage & { body?: unknown },
    response: ServerResponse,
    remoteAddress: string | undefined,
    auth: ConnectionAuth | undefined,
  ): boolean {
    const end = this.listenStreams.take(ListenStreamsPerCaller.keysOf(remoteAddress, auth));
    if (end) {
      response.once("close", end);
      return true;
    }
    const error = new TypedError({
      message: `Too many subscriptions/listen streams open: one caller may hold ${this.listenStreams.bound}; close one before listening again`,
      type: ErrorType.CONNECTION_RATE_LIMITED,
    });
    replyJsonRpcError(response, 200, { code: LISTEN_BOUND_ERROR_CODE, message: error.message, data: this.herald.codec.errorBody(error) }, requestIdOf(request.body));
    return false;
  }

  /**
   * Subscribes a listen stream to the channels behind its resources before the SDK opens it, and
   * ends those subscriptions when the stream closes; a channel's refusal is the listen request's
   * JSON-RPC error, and the stream is not opened.
   */
  private async openListen(
    uris: string[],
    request: IncomingMessage & { body?: unknown },
    response: ServerResponse,
    { remoteAddress, auth, requestId }: { remoteAddress: string | undefined; auth: ConnectionAuth | undefined; requestId: string | undefined },
  ): Promise<boolean> {
    const connection = new Connection({
      type: CONNECTION_TYPE.mcp,
      ...(remoteAddress ? { remoteAddress } : {}),
      ...(auth ? { auth } : {}),
      ...(requestId ? { requestId } : {}),
      incomingHeaders: request.headers,
    });
    try {
      const end = await this.listens.open(uris, connection);
      response.once("close", () => void end());
      return true;
    } catch (thrown) {
      const error = this.herald.codec.toError(thrown);
      replyJsonRpcError(response, 200, { code: -32602, message: error.message, data: this.herald.codec.errorBody(error) }, requestIdOf(request.body));
      return false;
    }
  }

  /**
   * A lone tool call without a token whose action refused the caller as not signed in is
   * answered 401 with the challenge an MCP client signs in from, rather than a tool error: the
   * answer (one result, since the call asked for no progress) is read whole to know which.
   */
  private async answerOrChallenge(request: Request, options?: McpHandlerRequestOptions): Promise<Response> {
    const answer = await this.handler.fetch(request, options);
    const store = requestCaller.getStore();
    if (!store?.signIn || !this.resourceServer) return answer;
    const body = await answer.arrayBuffer();
    if (store.signIn.needed) return this.resourceServer.signInChallenge(store.signIn.tool, store.headers.host);
    return new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  }

  /** The `subscriptions/listen` streams open. */
  get openListenStreams(): number {
    return this.listenStreams.total;
  }

  close(): Promise<void> {
    return this.handler.close();
  }
}
