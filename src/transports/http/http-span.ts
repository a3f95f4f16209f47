import type { IncomingMessage, ServerResponse } from "node:http";
import { METHODS } from "node:http";
import { context, SpanKind, SpanStatusCode, type AttributeValue, type Context, type Span } from "@opentelemetry/api";
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from "@opentelemetry/semantic-conventions";
import type { HttpMount } from "../../core/ports/http-mount";
import { continuedContext, heraldTracer, withinSpan } from "../../core/tracing";
import { mountServing } from "./mounts";
import { requestTarget } from "./request-target";

const KNOWN_METHODS = new Set(METHODS);

/** `Host`'s name and port, as `server.address` and `server.port`. */
function hostAttributes(host: string | undefined, tls: boolean): Record<string, AttributeValue> {
  if (!host) return {};
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  if (!match) return {};
  return { [ATTR_SERVER_ADDRESS]: match[1]!.replace(/^\[|\]$/g, ""), [ATTR_SERVER_PORT]: match[2] ? Number(match[2]) : tls ? 443 : 80 };
}

/**
 * The server span of one HTTP request, after the stable HTTP semantic conventions:
 * `GET /api/users/:id` once its route is known (`GET` alone for a request no route serves),
 * continuing the caller's `traceparent`; it ends when the response does.
 */
export class HttpServerSpan {
  private readonly span: Span;
  private readonly parent: Context;
  private readonly method: string;

  constructor(req: IncomingMessage, res: ServerResponse, pathname: string) {
    const original = req.method ?? "GET";
    this.method = KNOWN_METHODS.has(original) ? original : "_OTHER";
    this.parent = continuedContext(req.headers as Record<string, unknown>, context.active());
    const tls = Boolean((req.socket as { encrypted?: boolean }).encrypted);
    const agent = req.headers["user-agent"];
    this.span = heraldTracer().startSpan(
      this.method === "_OTHER" ? "HTTP" : this.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: this.method,
          ...(this.method === "_OTHER" ? { [ATTR_HTTP_REQUEST_METHOD_ORIGINAL]: original } : {}),
          [ATTR_URL_PATH]: pathname,
          [ATTR_URL_SCHEME]: tls ? "https" : "http",
          [ATTR_NETWORK_PROTOCOL_VERSION]: req.httpVersion,
          ...hostAttributes(req.headers.host, tls),
          ...(agent ? { [ATTR_USER_AGENT_ORIGINAL]: agent } : {}),
        },
      },
      this.parent,
    );
    res.once("close", () => this.end(res));
  }

  /**
   * The span of a request the Express application answers (a mount such as `/mcp` or `/oauth`, a
   * static file, the 404): named by the mount that serves it, by its method alone otherwise.
   */
  static outsideActions(req: IncomingMessage, res: ServerResponse, mounts: readonly HttpMount[]): HttpServerSpan {
    const pathname = requestTarget(req)?.pathname ?? "/";
    const span = new HttpServerSpan(req, res, pathname);
    const mount = mounts.length > 0 ? mountServing(mounts, pathname) : undefined;
    if (mount) span.routed(mount.path);
    return span;
  }

  /** Names the span by the route that serves the request (its template, prefix included). */
  routed(route: string): void {
    this.span.setAttribute(ATTR_HTTP_ROUTE, route);
    this.span.updateName(`${this.method === "_OTHER" ? "HTTP" : this.method} ${route}`);
  }

  within<T>(work: () => T): T {
    return withinSpan(this.span, this.parent, work);
  }

  private end(res: ServerResponse): void {
    const status = res.statusCode;
    if (res.writableFinished) {
      this.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (status >= 500) {
        this.span.setAttribute(ATTR_ERROR_TYPE, String(status));
        this.span.setStatus({ code: SpanStatusCode.ERROR });
      }
    } else {
      // The connection closed before the answer was sent whole: the client left, or it was cut off.
      this.span.setAttribute(ATTR_ERROR_TYPE, "aborted");
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end();
  }
}
