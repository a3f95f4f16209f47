import { context, SpanKind, SpanStatusCode, type Context, type Span } from "@opentelemetry/api";
import { ATTR_ERROR_TYPE, ATTR_RPC_METHOD, ATTR_RPC_SYSTEM_NAME } from "@opentelemetry/semantic-conventions";
import type { CONNECTION_TYPE } from "./constants";
import type { TypedError } from "./errors";
import { ATTR_HERALD_TRANSPORT, ATTR_RPC_RESPONSE_STATUS_CODE, RPC_SYSTEM_HERALD } from "./trace-attributes";
import { hasLocalSpan, heraldTracer, withinSpan } from "./tracing";

/**
 * The span of one action call, after the RPC semantic conventions: named by the action, within the
 * transport's span when it made one (an HTTP request, an MCP request, a job's run), else the
 * server span of a caller's trace (a WebSocket message, a CLI call). The call runs within it, so
 * what the action traces and logs is its child.
 */
export class CallSpan {
  private readonly span: Span;
  private readonly parent: Context;
  private ended = false;

  constructor(actionName: string, transport: CONNECTION_TYPE) {
    this.parent = context.active();
    this.span = heraldTracer().startSpan(
      actionName,
      {
        kind: hasLocalSpan(this.parent) ? SpanKind.INTERNAL : SpanKind.SERVER,
        attributes: { [ATTR_RPC_SYSTEM_NAME]: RPC_SYSTEM_HERALD, [ATTR_RPC_METHOD]: actionName, [ATTR_HERALD_TRANSPORT]: transport },
      },
      this.parent,
    );
  }

  within<T>(work: () => T): T {
    return withinSpan(this.span, this.parent, work);
  }

  /** Ends the span with the status the caller got; a server-side error (5xx) marks it failed. Once only. */
  end(status: number, error: TypedError | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.span.setAttribute(ATTR_RPC_RESPONSE_STATUS_CODE, String(status));
    if (error) {
      this.span.setAttribute(ATTR_ERROR_TYPE, error.type);
      if (status >= 500) this.span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    this.span.end();
  }
}
