import { trace } from "@opentelemetry/api";

/** The active span's ids, as a log line's `trace_id` and `span_id` (OpenTelemetry's names for them in logs); none outside a span. */
export function activeTraceIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
