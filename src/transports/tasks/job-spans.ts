import { context, ROOT_CONTEXT, SpanKind, trace, type Span } from "@opentelemetry/api";
import {
  ATTR_MESSAGING_BATCH_MESSAGE_COUNT,
  ATTR_MESSAGING_DESTINATION_NAME,
  ATTR_MESSAGING_MESSAGE_ID,
  ATTR_MESSAGING_OPERATION_NAME,
  ATTR_MESSAGING_OPERATION_TYPE,
  ATTR_MESSAGING_SYSTEM,
} from "../../core/trace-attributes";
import { continuedContext, heraldTracer, isTracing, recordSpanFailure, traceCarrier, type TraceCarrier } from "../../core/tracing";
import type { QueueDriver } from "./driver";
import { JobFailure } from "./job-failure";

/** Which attempt of the job a `process` span runs: 1, then one more for each retry. */
const ATTR_HERALD_JOB_ATTEMPT = "herald.job.attempt";

/** `messaging.system` of a driver's jobs. */
export function messagingSystem(kind: QueueDriver["kind"]): string {
  return kind === "redis" ? "bee-queue" : "herald";
}

function failed(span: Span, thrown: unknown): void {
  recordSpanFailure(span, thrown, thrown instanceof JobFailure ? thrown.body.type : undefined);
}

/**
 * Queues jobs within a PRODUCER `send {queue}` span (messaging conventions), when tracing is on:
 * `enqueue` gets the span's trace context to store with each job, so that each job's run is its
 * child, through retries and fan-out. Without tracing, `enqueue` gets none and nothing is built.
 */
export async function sendingJobs(
  queue: string,
  system: string,
  count: number,
  enqueue: (trace: TraceCarrier | undefined) => Promise<string[]>,
): Promise<string[]> {
  if (!isTracing()) return enqueue(undefined);
  const span = heraldTracer().startSpan(`send ${queue}`, {
    kind: SpanKind.PRODUCER,
    attributes: {
      [ATTR_MESSAGING_SYSTEM]: system,
      [ATTR_MESSAGING_DESTINATION_NAME]: queue,
      [ATTR_MESSAGING_OPERATION_TYPE]: "send",
      [ATTR_MESSAGING_OPERATION_NAME]: "send",
      ...(count !== 1 ? { [ATTR_MESSAGING_BATCH_MESSAGE_COUNT]: count } : {}),
    },
  });
  const sending = trace.setSpan(context.active(), span);
  try {
    const ids = await context.with(sending, () => enqueue(traceCarrier(sending)));
    if (ids.length === 1) span.setAttribute(ATTR_MESSAGING_MESSAGE_ID, ids[0]!);
    return ids;
  } catch (thrown) {
    failed(span, thrown);
    throw thrown;
  } finally {
    span.end();
  }
}

/**
 * Runs one attempt of a job within a CONSUMER `process {queue}` span, the child of the context
 * stored with the job; a job stored without one (a recurring job, or one queued with tracing off)
 * starts a trace of its own, never the context its worker happens to run in.
 */
export async function processingJob<T>(
  job: { id: string; queue: string; attempt: number; payload: { trace?: TraceCarrier } },
  system: string,
  run: () => Promise<T>,
): Promise<T> {
  if (!isTracing()) return run();
  const parent = continuedContext(job.payload.trace ? { ...job.payload.trace } : undefined, ROOT_CONTEXT);
  const span = heraldTracer().startSpan(
    `process ${job.queue}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        [ATTR_MESSAGING_SYSTEM]: system,
        [ATTR_MESSAGING_DESTINATION_NAME]: job.queue,
        [ATTR_MESSAGING_OPERATION_TYPE]: "process",
        [ATTR_MESSAGING_OPERATION_NAME]: "process",
        [ATTR_MESSAGING_MESSAGE_ID]: job.id,
        [ATTR_HERALD_JOB_ATTEMPT]: job.attempt,
      },
    },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), run);
  } catch (thrown) {
    failed(span, thrown);
    throw thrown;
  } finally {
    span.end();
  }
}
