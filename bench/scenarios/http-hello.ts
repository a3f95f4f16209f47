import { compare } from "../lib/comparison";
import { HTTP_BASELINES, HTTP_COLUMNS, measureHttpServers } from "../lib/http-rounds";
import { emptyResult } from "../lib/results";
import { rowsOf } from "../lib/rounds";
import type { Scenario } from "../lib/scenario";
import type { ServerSubject } from "../lib/server-rounds";
import { heraldSpec, otherBuild, otherBuildSubjects } from "../lib/subjects";
import { HELLO_PATH, helloResponse } from "../shared/hello";

const HERALD: ServerSubject = { subject: "herald", label: "Herald", spec: (port) => heraldSpec("Herald", { env: { PORT: String(port) } }) };

/**
 * GET /api/bench/hello answering {"hello":"world"}, no params, no validation: the shape of
 * fastify/benchmarks' table, so Herald's figure stands beside it. The same servers, the same one
 * global middleware and the same request logs as the HTTP action scenario.
 */
export const httpHelloScenario: Scenario = {
  id: "http-hello",
  title: "HTTP hello world",
  async run({ settings, log }) {
    const result = emptyResult(this.id, this.title, { ...settings.http, path: HELLO_PATH });
    const subjects = [HERALD, ...otherBuildSubjects(), ...HTTP_BASELINES];
    const samples = await measureHttpServers({ subjects, path: HELLO_PATH, answer: helloResponse(), settings: settings.http, log });
    result.columns = HTTP_COLUMNS;
    result.rows = rowsOf(subjects, samples, HTTP_COLUMNS);
    result.comparisons = [
      ...HTTP_BASELINES.map((baseline) => compare(result.rows, "herald", baseline.subject, "rps", "higher")),
      compare(result.rows, "herald", "node", "p99", "lower"),
      compare(result.rows, "herald", "node", "cpuUs", "lower"),
      compare(result.rows, "herald", "fastify", "cpuUs", "lower"),
      ...(otherBuild.root ? [compare(result.rows, "herald", "herald-before", "rps", "higher"), compare(result.rows, "herald", "herald-before", "cpuUs", "lower")] : []),
    ];
    const { connections, rounds, durationSeconds } = settings.http;
    result.notes.push(
      `${connections} connections, ${rounds} rounds × ${durationSeconds} s per subject, alternating; latency of every 2xx response, to the µs; Herald logs one JSON line per request to /dev/null, Fastify two (its default logger at info); no target: fastify/benchmarks runs without logs, middleware or alternation, so compare ratios, not req/s`,
    );
    return result;
  },
};
