import { context, SpanKind, trace } from "@opentelemetry/api";
import { TypedError } from "../core/errors";
import { ATTR_MESSAGING_DESTINATION_NAME, ATTR_MESSAGING_OPERATION_NAME, ATTR_MESSAGING_OPERATION_TYPE, ATTR_MESSAGING_SYSTEM } from "../core/trace-attributes";
import { continuedContext, heraldTracer, isTracing, recordSpanFailure, ROOT_CONTEXT, traceCarrier, type TraceCarrier } from "../core/tracing";

/**
 * A channel message published from a traced call travels with the call's trace context beside the
 * event clients get; the receiving process takes it off before any subscriber sees the event.
 * Events clients get start with `{"messageType":`, so the two never mistake each other.
 */
const TRACED_PREFIX = '{"trace":';

/**
 * Publishes `eventText` with `send`. When tracing is on, within a PRODUCER `publish {channel}`
 * span (messaging conventions), the child of the publishing call, whose context the payload
 * carries for the deliveries to link to; otherwise the event alone, and nothing is built.
 */
export async function publishingTraced(channel: string, eventText: string, send: (payload: string) => Promise<void>): Promise<void> {
  if (!isTracing()) return send(eventText);
  const span = heraldTracer().startSpan(`publish ${channel}`, {
    kind: SpanKind.PRODUCER,
    attributes: {
      [ATTR_MESSAGING_SYSTEM]: "herald",
      [ATTR_MESSAGING_DESTINATION_NAME]: channel,
      [ATTR_MESSAGING_OPERATION_TYPE]: "send",
      [ATTR_MESSAGING_OPERATION_NAME]: "publish",
    },
  });
  const carrier = traceCarrier(trace.setSpan(context.active(), span));
  try {
    await send(carrier ? `${TRACED_PREFIX}${JSON.stringify(carrier)},"event":${eventText}}` : eventText);
  } catch (thrown) {
    recordSpanFailure(span, thrown, thrown instanceof TypedError ? thrown.type : undefined);
    throw thrown;
  } finally {
    span.end();
  }
}

export function isTracedPayload(payload: string): boolean {
  return payload.startsWith(TRACED_PREFIX);
}

/** The event clients get, and the trace context it was published in, if any. */
export function untracedPayload(payload: string): { eventText: string; trace?: TraceCarrier } {
  if (!payload.startsWith(TRACED_PREFIX)) return { eventText: payload };
  const { trace: carrier, event } = JSON.parse(payload) as { trace: TraceCarrier; event: unknown };
  return { eventText: JSON.stringify(event), trace: carrier };
}

/**
 * Runs the delivery of a published message to this process's subscribers within a CONSUMER
 * `process {channel}` span linked to the `publish` span that sent it (a pub/sub message reaches many
 * processes, so it starts a trace of each, as the messaging conventions have it).
 */
export function deliveringTraced(channel: string, carrier: TraceCarrier | undefined, deliver: () => void): void {
  if (!carrier || !isTracing()) return deliver();
  const published = trace.getSpanContext(continuedContext({ ...carrier }, ROOT_CONTEXT));
  const span = heraldTracer().startSpan(
    `process ${channel}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: { [ATTR_MESSAGING_SYSTEM]: "herald", [ATTR_MESSAGING_DESTINATION_NAME]: channel, [ATTR_MESSAGING_OPERATION_TYPE]: "process" },
      ...(published ? { links: [{ context: published }] } : {}),
    },
    ROOT_CONTEXT,
  );
  try {
    context.with(trace.setSpan(ROOT_CONTEXT, span), deliver);
  } finally {
    span.end();
  }
}
