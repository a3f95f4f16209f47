import { randomBytes } from "node:crypto";
import { connectRedis, REDIS_URL, removeKeys } from "../lib/bench-redis";
import { compare } from "../lib/comparison";
import { measureHttpServers } from "../lib/http-rounds";
import { emptyResult, type Column } from "../lib/results";
import { rowsOf, type Sample } from "../lib/rounds";
import type { Scenario } from "../lib/scenario";
import type { ServerSubject } from "../lib/server-rounds";
import { measureWebSocketServers } from "../lib/ws-rounds";
import { heraldSpec } from "../lib/subjects";
import { ECHO_PARAMS, ECHO_PATH, ECHO_QUERY, echoResponse } from "../shared/echo";
import { UNLIMITED_WS_RATE } from "./websocket";

const COLUMNS: Column[] = [
  { key: "rps", title: "HTTP req/s", digits: 0 },
  { key: "p99", title: "HTTP p99 ms", digits: 2 },
  { key: "cpuUs", title: "CPU µs/req", digits: 0 },
  { key: "mps", title: "WebSocket round trips/s", digits: 0 },
  { key: "wsP99", title: "WebSocket p99 ms", digits: 2 },
  { key: "wsCpuUs", title: "CPU µs/message", digits: 0 },
];

/** Herald on one process and on two (`herald start --processes 2`), both on Redis, as many processes must be. */
function subjects(name: string): ServerSubject[] {
  const env = (port: number) => ({ PORT: String(port), REDIS_URL, NAME: name, ...UNLIMITED_WS_RATE });
  return [
    { subject: "one", label: "Herald, 1 process", spec: (port) => heraldSpec("Herald, 1 process", { env: env(port) }) },
    { subject: "two", label: "Herald, 2 processes", spec: (port) => heraldSpec("Herald, 2 processes", { args: ["start", "--processes", "2"], env: env(port) }) },
  ];
}

/** The HTTP action and the WebSocket round trip of their scenarios, on one Herald process against two sharing the port. */
export const processesScenario: Scenario = {
  id: "processes",
  title: "One process and two",
  async run({ settings, servicesRequired, log }) {
    const redis = await connectRedis(servicesRequired);
    const name = `herald-bench-processes-${randomBytes(4).toString("hex")}`;
    const result = emptyResult(this.id, this.title, { ...settings.processes, path: `${ECHO_PATH}?${ECHO_QUERY}` });
    const list = subjects(name);
    try {
      const http = await measureHttpServers({ subjects: list, path: `${ECHO_PATH}?${ECHO_QUERY}`, answer: echoResponse(ECHO_PARAMS), settings: settings.processes, log });
      const { rounds, warmupSeconds, durationSeconds, clients } = settings.processes;
      const websocket = await measureWebSocketServers({ subjects: list, rounds, warmupSeconds, durationSeconds, clients, log });
      // One row per subject: the HTTP round and the WebSocket round of the same index side by side.
      const samples = new Map<string, Sample[]>();
      for (const subject of list) {
        const wsRounds = websocket.get(subject.subject) ?? [];
        samples.set(
          subject.subject,
          (http.get(subject.subject) ?? []).map((round, i) => ({
            ...round,
            mps: wsRounds[i]?.mps ?? Number.NaN,
            wsP99: wsRounds[i]?.p99 ?? Number.NaN,
            wsCpuUs: wsRounds[i]?.cpuUs ?? Number.NaN,
          })),
        );
      }
      result.columns = COLUMNS;
      result.rows = rowsOf(list, samples, COLUMNS);
      result.comparisons = [
        compare(result.rows, "two", "one", "rps", "higher"),
        compare(result.rows, "two", "one", "mps", "higher"),
        compare(result.rows, "two", "one", "cpuUs", "lower"),
      ];
      result.notes.push(
        `${settings.processes.connections} HTTP connections, then ${clients} WebSocket clients, ${rounds} rounds × ${durationSeconds} s per subject, alternating; both on Redis ${REDIS_URL}; the load generator runs on the same cores, so a second process competes with it: on a machine of 2 cores this shows what a second process costs and gives, not what a machine with cores to spare gains; CPU is the primary's and its processes' together`,
      );
      return result;
    } finally {
      await removeKeys(redis, name).finally(() => redis.disconnect());
    }
  },
};
