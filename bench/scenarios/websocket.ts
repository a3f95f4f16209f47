import { compare } from "../lib/comparison";
import { emptyResult, type Column } from "../lib/results";
import { rowsOf } from "../lib/rounds";
import type { Scenario } from "../lib/scenario";
import type { ServerSubject } from "../lib/server-rounds";
import { measureWebSocketServers } from "../lib/ws-rounds";
import { baselineSpec, heraldSpec } from "../lib/subjects";

/** The per-socket message rate limit is a guard against abuse, not what this scenario measures. */
export const UNLIMITED_WS_RATE = { WS_MAX_MESSAGES_PER_SECOND: "1000000000" };

const SUBJECTS: ServerSubject[] = [
  { subject: "herald", label: "Herald", spec: (port) => heraldSpec("Herald", { env: { PORT: String(port), ...UNLIMITED_WS_RATE } }) },
  { subject: "ws", label: "raw ws", spec: (port) => baselineSpec("raw ws", "ws.ts", { PORT: String(port) }) },
];

const COLUMNS: Column[] = [
  { key: "mps", title: "round trips/s", digits: 0 },
  { key: "p50", title: "p50 ms", digits: 2 },
  { key: "p99", title: "p99 ms", digits: 2 },
  { key: "cpuUs", title: "server CPU µs/message", digits: 0 },
];

/** The bench:echo action as a WebSocket message, from concurrent clients, each with one message in flight. */
export const websocketScenario: Scenario = {
  id: "websocket",
  title: "WebSocket action round trip",
  async run({ settings, log }) {
    const { rounds, warmupSeconds, durationSeconds, clients } = settings.websocket;
    const result = emptyResult(this.id, this.title, { ...settings.websocket, action: "bench:echo" });
    const samples = await measureWebSocketServers({ subjects: SUBJECTS, rounds, warmupSeconds, durationSeconds, clients, log });
    result.columns = COLUMNS;
    result.rows = rowsOf(SUBJECTS, samples, COLUMNS);
    result.comparisons = [
      compare(result.rows, "herald", "ws", "mps", "higher", 0.95),
      compare(result.rows, "herald", "ws", "p99", "lower", 1.5),
      compare(result.rows, "herald", "ws", "cpuUs", "lower"),
    ];
    result.notes.push(
      `${clients} clients, one message in flight each, ${rounds} rounds × ${durationSeconds} s per subject; Herald logs one JSON line per action to /dev/null; its per-socket rate limit raised out of the way`,
    );
    return result;
  },
};
