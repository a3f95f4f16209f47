import { compare } from "../lib/comparison";
import { HTTP_BASELINES, HTTP_COLUMNS, measureHttpServers } from "../lib/http-rounds";
import { freePort, ServerProcess } from "../lib/processes";
import { emptyResult } from "../lib/results";
import { rowsOf } from "../lib/rounds";
import type { Scenario } from "../lib/scenario";
import type { ServerSubject } from "../lib/server-rounds";
import { baselineSpec, heraldSpec, otherBuild, otherBuildSubjects } from "../lib/subjects";
import { ECHO_PARAMS, ECHO_PATH, ECHO_QUERY, echoResponse } from "../shared/echo";

/**
 * Herald as users run it (in production without a metrics credential: tracing off, nothing
 * recorded), Herald observed (the OpenTelemetry SDK on, every span exported over OTLP
 * http/protobuf to a receiver that keeps nothing, and /metrics recording behind its token), and,
 * with `--herald-before=<dir>`, the build of another checkout.
 */
function heraldSubjects(sinkPort: number): ServerSubject[] {
  const traced = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sinkPort}`,
    OTEL_TRACES_SAMPLER: "always_on",
    OTEL_SERVICE_NAME: "herald-bench",
    // Metrics are recorded too; OTLP gets them only every minute, far apart from the rounds' load.
    METRICS_TOKEN: "bench-only-metrics-token-0123456789",
  };
  return [
    { subject: "herald", label: "Herald", spec: (port) => heraldSpec("Herald", { env: { PORT: String(port) } }) },
    { subject: "herald-traced", label: "Herald, traced and metered", spec: (port) => heraldSpec("Herald, traced and metered", { env: { PORT: String(port), ...traced } }) },
    ...otherBuildSubjects(),
  ];
}

/** GET /api/bench/echo: a zod-validated query, JSON out, one global middleware, Herald's and Fastify's request logs on. */
export const httpScenario: Scenario = {
  id: "http",
  title: "HTTP action",
  async run({ settings, log }) {
    const path = `${ECHO_PATH}?${ECHO_QUERY}`;
    const result = emptyResult(this.id, this.title, { ...settings.http, path });
    const sinkPort = await freePort();
    const sink = new ServerProcess(baselineSpec("OTLP receiver", "otlp-sink.ts", { PORT: String(sinkPort) }));
    await sink.waitForHttp(`http://127.0.0.1:${sinkPort}/`);
    const subjects = [...heraldSubjects(sinkPort), ...HTTP_BASELINES];
    const samples = await measureHttpServers({ subjects, path, answer: echoResponse(ECHO_PARAMS), settings: settings.http, log }).finally(() => sink.stop());
    result.columns = HTTP_COLUMNS;
    result.rows = rowsOf(subjects, samples, HTTP_COLUMNS);
    result.comparisons = [
      compare(result.rows, "herald", "node", "rps", "higher", 0.75),
      compare(result.rows, "herald", "fastify", "rps", "higher", 1.0),
      compare(result.rows, "herald", "express", "rps", "higher", 1.3),
      compare(result.rows, "herald", "nest", "rps", "higher", 1.5),
      compare(result.rows, "herald", "hono", "rps", "higher"),
      compare(result.rows, "herald", "node", "p99", "lower", 1.5),
      compare(result.rows, "herald", "express", "cpuUs", "lower"),
      compare(result.rows, "herald-traced", "herald", "rps", "higher"),
      compare(result.rows, "herald-traced", "herald", "cpuUs", "lower"),
      ...(otherBuild.root ? [compare(result.rows, "herald", "herald-before", "rps", "higher"), compare(result.rows, "herald", "herald-before", "cpuUs", "lower")] : []),
    ];
    const { connections, rounds, durationSeconds } = settings.http;
    result.notes.push(
      `${connections} connections, ${rounds} rounds × ${durationSeconds} s per subject, alternating; latency of every 2xx response, to the µs; Herald logs one JSON line per request to /dev/null, Fastify two (its default logger at info)`,
    );
    return result;
  },
};
