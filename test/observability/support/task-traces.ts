import type { InMemorySpanExporter, ReadableSpan } from "@opentelemetry/sdk-trace";
import { TaskService } from "herald";
import { testServer, waitFor } from "herald/testing";
import { parentOf, remoteParent, SpanKind, spansWhere } from "./in-memory-tracing";

type GetUser = (id: string, query: string, headers?: Record<string, string>) => Promise<{ traceId: string | null; queued: string | null }>;

/** The one span ended so far that matches, once it has. */
export async function oneSpan(exporter: InMemorySpanExporter, match: (span: ReadableSpan) => boolean): Promise<ReadableSpan> {
  await waitFor(() => spansWhere(exporter, match).length > 0);
  const found = spansWhere(exporter, match);
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** `GET /api/users/:id` of the traced fixture app, answered 200. */
export function getUserOf(url: () => string): GetUser {
  return async (id, query, headers = {}) => {
    const response = await fetch(`${url()}/api/users/${id}${query}`, { headers });
    expect(response.status).toBe(200);
    return (await response.json()) as { traceId: string | null; queued: string | null };
  };
}

/** The traces of queued jobs, the same on every driver: `system` is the driver's `messaging.system`. */
export function taskTraces(exporter: InMemorySpanExporter, system: string, getUser: GetUser): void {
  const named = (name: string) => (span: ReadableSpan) => span.name === name;
  const one = (match: (span: ReadableSpan) => boolean) => oneSpan(exporter, match);
  test("an enqueued job's run is the child of its send span, the child of the call that queued it", async () => {
    const caller = remoteParent();
    const answer = await getUser("j1", "?enqueue=one", { traceparent: caller.traceparent });
    const action = await one(named("traced:user"));
    const send = await one(named("send traced"));
    const processed = await one(named("process traced"));
    const job = await one(named("traced:job"));

    expect(send.kind).toBe(SpanKind.PRODUCER);
    expect(parentOf(send)).toBe(action.spanContext().spanId);
    expect(send.attributes).toMatchObject({
      "messaging.system": system,
      "messaging.destination.name": "traced",
      "messaging.operation.type": "send",
      "messaging.message.id": answer.queued,
    });
    expect(processed.kind).toBe(SpanKind.CONSUMER);
    expect(parentOf(processed)).toBe(send.spanContext().spanId);
    expect(processed.spanContext().traceId).toBe(caller.traceId);
    expect(processed.attributes).toMatchObject({ "messaging.operation.type": "process", "messaging.message.id": answer.queued });
    expect(parentOf(job)).toBe(processed.spanContext().spanId);
    expect(job.attributes["herald.transport"]).toBe("task");

    // The stored context is not among the job's params, which are strict.
    const info = await testServer().container.resolve(TaskService).getJob("traced", answer.queued!);
    expect(info).toMatchObject({ status: "succeeded", params: { id: "j1" }, result: { keys: ["id"], traceId: caller.traceId } });
  });

  test("each child of a fan-out runs as a child of the fan-out's send span", async () => {
    await getUser("f", "?enqueue=fan");
    const send = await one(named("send traced"));
    expect(send.attributes["messaging.batch.message_count"]).toBe(2);
    await waitFor(() => spansWhere(exporter, named("process traced")).length === 2);
    for (const processed of spansWhere(exporter, named("process traced"))) {
      expect(parentOf(processed)).toBe(send.spanContext().spanId);
      expect(processed.spanContext().traceId).toBe(send.spanContext().traceId);
    }
  });

  test("a retried job's every attempt has the same parent", async () => {
    await getUser("r1", "?enqueue=flaky");
    const send = await one(named("send traced"));
    await waitFor(() => spansWhere(exporter, named("process traced")).length === 2);
    const attempts = spansWhere(exporter, named("process traced"));
    expect(attempts.map((span) => span.attributes["herald.job.attempt"]).sort()).toEqual([1, 2]);
    for (const attempt of attempts) expect(parentOf(attempt)).toBe(send.spanContext().spanId);
    const failed = attempts.find((span) => span.attributes["herald.job.attempt"] === 1)!;
    expect(failed.attributes["error.type"]).toBe("CONNECTION_ACTION_RUN");
  });
}
