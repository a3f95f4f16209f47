import { measureHttp } from "../load/http";
import { compare } from "../lib/comparison";
import { emptyResult, type Column } from "../lib/results";
import { rowsOf } from "../lib/rounds";
import type { Scenario } from "../lib/scenario";
import { freePort, ServerProcess } from "../lib/processes";
import { measureServers, type ServerSubject } from "../lib/server-rounds";
import { baselineSpec, heraldSpec, otherBuild } from "../lib/subjects";
import { ECHO_PATH, ECHO_QUERY } from "../shared/echo";

const BASELINES: ServerSubject[] = [
  { subject: "node", label: "raw node:http", spec: (port) => baselineSpec("raw node:http", "node-http.ts", { PORT: String(port) }) },
  { subject: "fastify", label: "Fastify 5", spec: (port) => baselineSpec("Fastify 5", "fastify.ts", { PORT: String(port) }) },
  { subject: "express", label: "raw Express 5", spec: (port) => baselineSpec("raw Express 5", "express.ts", { PORT: String(port) }) },
  { subject: "nest", label: "NestJS 11 (Express)", spec: (port) => baselineSpec("NestJS", "nest.ts", { PORT: String(port) }) },
];

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
    ...(otherBuild.root
      ? [{ subject: "herald-before", label: "Herald, --herald-before build", spec: (port: number) => heraldSpec("Herald (before)", { root: otherBuild.root, env: { PORT: String(port) } }) }]
      : []),
  ];
}

/** Latency to the microsecond, not autocannon's whole milliseconds: see measureHttp. */
const COLUMNS: Column[] = [
  { key: "rps", title: "req/s", digits: 0 },
  { key: "p50", title: "p50 ms", digits: 2 },
  { key: "p99", title: "p99 ms", digits: 2 },
  { key: "cpuUs", title: "server CPU µs/req", digits: 0 },
];

/** GET /api/bench/echo: a zod-validated query, JSON out, one global middleware, Herald's and Fastify's request logs on. */
export const httpScenario: Scenario = {
  id: "http",
  title: "HTTP action",
  async run({ settings, log }) {
    const { rounds, warmupSeconds, durationSeconds, connections } = settings.http;
    const result = emptyResult(this.id, this.title, { ...settings.http, path: `${ECHO_PATH}?${ECHO_QUERY}` });
    const sinkPort = await freePort();
    const sink = new ServerProcess(baselineSpec("OTLP receiver", "otlp-sink.ts", { PORT: String(sinkPort) }));
    await sink.waitForHttp(`http://127.0.0.1:${sinkPort}/`);
    const subjects = [...heraldSubjects(sinkPort), ...BASELINES];
    const samples = await measureServers({
      subjects,
      rounds,
      warmupSeconds,
      durationSeconds,
      async ready(port, server) {
        const url = `http://127.0.0.1:${port}${ECHO_PATH}?${ECHO_QUERY}`;
        await server.waitForHttp(url);
        return url;
      },
      async load(url, seconds) {
        const measured = await measureHttp({ url, connections, durationSeconds: seconds });
        return { sample: { rps: measured.requestsPerSecond, p50: measured.p50Ms, p99: measured.p99Ms }, calls: measured.requests };
      },
      log,
    }).finally(() => sink.stop());
    result.columns = COLUMNS;
    result.rows = rowsOf(subjects, samples, COLUMNS);
    result.comparisons = [
      compare(result.rows, "herald", "node", "rps", "higher", 0.75),
      compare(result.rows, "herald", "fastify", "rps", "higher", 1.0),
      compare(result.rows, "herald", "express", "rps", "higher", 1.3),
      compare(result.rows, "herald", "nest", "rps", "higher", 1.5),
      compare(result.rows, "herald", "node", "p99", "lower", 1.5),
      compare(result.rows, "herald", "express", "cpuUs", "lower"),
      compare(result.rows, "herald-traced", "herald", "rps", "higher"),
      compare(result.rows, "herald-traced", "herald", "cpuUs", "lower"),
      ...(otherBuild.root ? [compare(result.rows, "herald", "herald-before", "rps", "higher"), compare(result.rows, "herald", "herald-before", "cpuUs", "lower")] : []),
    ];
    result.notes.push(
      `${connections} connections, ${rounds} rounds × ${durationSeconds} s per subject, alternating; latency of every 2xx response, to the µs; Herald logs one JSON line per request to /dev/null, Fastify two (its default logger at info)`,
    );
    return result;
  },
};
