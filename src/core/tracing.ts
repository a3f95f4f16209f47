import {
  context,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { ATTR_ERROR_TYPE } from "@opentelemetry/semantic-conventions";

/**
 * Herald's spans go through `@opentelemetry/api` alone: with no SDK registered, nothing is
 * recorded, and Herald skips building a span at all (`isTracing`), so tracing off costs one check
 * a call.
 */

/** What the API's proxy delegates to while no tracer provider is registered. */
const NO_PROVIDER = new ProxyTracerProvider().getDelegate();

/** Whether a tracer provider is registered (Herald's SDK, or the app's own): a few property reads. */
export function isTracing(): boolean {
  const provider = trace.getTracerProvider();
  // A provider of another copy of the API is not this copy's proxy, and is registered.
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NO_PROVIDER;
}

export function heraldTracer(): Tracer {
  return trace.getTracer("herald");
}

/** W3C trace context, for an app that registered no propagator of its own. */
const W3C = new W3CTraceContextPropagator();

/** The app's propagator when it registered one (the SDK registers W3C trace context and baggage), else W3C trace context. */
function propagator(): TextMapPropagator {
  return propagation.fields().length > 0 ? propagation : W3C;
}

/** `traceparent` and `tracestate`, as HTTP headers, WebSocket messages, MCP `_meta` and stored jobs carry them. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/**
 * The context a caller's trace context continues, over `base` (the active one by default);
 * `base` itself when the carrier has none, or none valid. Header arrays (Node's) are read too.
 */
export function continuedContext(carrier: Readonly<Record<string, unknown>> | undefined, base: Context = context.active()): Context {
  if (!carrier || typeof carrier.traceparent !== "string" && !Array.isArray(carrier.traceparent)) return base;
  return propagator().extract(base, carrier, {
    keys: (from) => Object.keys(from),
    get: (from, key) => {
      const value = (from as Record<string, unknown>)[key];
      return typeof value === "string" || Array.isArray(value) ? (value as string | string[]) : undefined;
    },
  });
}

/** The trace context to send on with work done later or elsewhere (a job, a channel message); undefined without a span. */
export function traceCarrier(from: Context = context.active()): TraceCarrier | undefined {
  if (!trace.getSpan(from)?.spanContext().traceId) return undefined;
  const carrier: Record<string, string> = {};
  propagator().inject(from, carrier, {
    set: (to, key, value) => {
      (to as Record<string, string>)[key] = value;
    },
  });
  return carrier.traceparent ? carrier : undefined;
}

/** Whether the context's span (if any) was started in this process, rather than continued from a caller. */
export function hasLocalSpan(from: Context = context.active()): boolean {
  const span = trace.getSpan(from);
  return span !== undefined && !span.spanContext().isRemote;
}

/** Runs `work` with `span` as the active span, over `parent`. */
export function withinSpan<T>(span: Span, parent: Context, work: () => T): T {
  return context.with(trace.setSpan(parent, span), work);
}

export { ROOT_CONTEXT };

/**
 * Marks `span` as failed by `thrown`: `error.type` is `errorType`, or else the error's name, and
 * the status is an error with its message. Ending the span is the caller's.
 */
export function recordSpanFailure(span: Span, thrown: unknown, errorType?: string): void {
  span.setAttribute(ATTR_ERROR_TYPE, errorType ?? (thrown instanceof Error ? thrown.name : "error"));
  span.setStatus({ code: SpanStatusCode.ERROR, ...(thrown instanceof Error ? { message: thrown.message } : {}) });
}
