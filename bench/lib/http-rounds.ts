import { isDeepStrictEqual } from "node:util";
import { measureHttp } from "../load/http";
import type { ServerProcess } from "./processes";
import type { Column } from "./results";
import type { Sample } from "./rounds";
import type { Settings } from "./scenario";
import { measureServers, type ServerSubject } from "./server-rounds";
import { baselineSpec } from "./subjects";

/** The baselines of the HTTP scenarios: each server answers every scenario's route. */
export const HTTP_BASELINES: ServerSubject[] = [
  { subject: "node", label: "raw node:http", spec: (port) => baselineSpec("raw node:http", "node-http.ts", { PORT: String(port) }) },
  { subject: "fastify", label: "Fastify 5", spec: (port) => baselineSpec("Fastify 5", "fastify.ts", { PORT: String(port) }) },
  { subject: "express", label: "raw Express 5", spec: (port) => baselineSpec("raw Express 5", "express.ts", { PORT: String(port) }) },
  { subject: "hono", label: "Hono 4 (@hono/node-server)", spec: (port) => baselineSpec("Hono 4", "hono.ts", { PORT: String(port) }) },
  { subject: "nest", label: "NestJS 11 (Express)", spec: (port) => baselineSpec("NestJS", "nest.ts", { PORT: String(port) }) },
];

/** Latency to the microsecond, not autocannon's whole milliseconds: see measureHttp. */
export const HTTP_COLUMNS: Column[] = [
  { key: "rps", title: "req/s", digits: 0 },
  { key: "p50", title: "p50 ms", digits: 2 },
  { key: "p99", title: "p99 ms", digits: 2 },
  { key: "cpuUs", title: "server CPU µs/req", digits: 0 },
];

export interface HttpRounds {
  subjects: readonly ServerSubject[];
  /** The path and query every subject is loaded on. */
  path: string;
  /** The JSON every subject must answer there: a subject doing other work would not compare. */
  answer: unknown;
  settings: Settings["http"];
  log: (line: string) => void;
}

/** Refuses a subject whose answer on `url` is not `answer`, before any load is measured. */
async function assertAnswers(server: ServerProcess, url: string, answer: unknown): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  if (response.status !== 200 || !isDeepStrictEqual(body, answer)) {
    throw new Error(`${server.spec.label} answered ${url} with ${response.status} ${text.slice(0, 200)}, not ${JSON.stringify(answer)}`);
  }
}

/** Every subject's server loaded with autocannon on `path`, in alternating rounds: req/s, p50, p99 and CPU per request. */
export function measureHttpServers(options: HttpRounds): Promise<Map<string, Sample[]>> {
  const { rounds, warmupSeconds, durationSeconds, connections } = options.settings;
  return measureServers({
    subjects: options.subjects,
    rounds,
    warmupSeconds,
    durationSeconds,
    async ready(port, server) {
      const url = `http://127.0.0.1:${port}${options.path}`;
      await server.waitForHttp(url);
      await assertAnswers(server, url, options.answer);
      return url;
    },
    async load(url, seconds) {
      const measured = await measureHttp({ url, connections, durationSeconds: seconds });
      return { sample: { rps: measured.requestsPerSecond, p50: measured.p50Ms, p99: measured.p99Ms }, calls: measured.requests };
    },
    log: options.log,
  });
}
