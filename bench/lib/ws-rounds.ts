import { probeWebSocket } from "../load/ws-probe";
import { measureWebSocket } from "../load/ws-round-trips";
import { ECHO_PARAMS, ECHO_PATH, ECHO_QUERY } from "../shared/echo";
import type { Sample } from "./rounds";
import { measureServers, type ServerSubject } from "./server-rounds";

export interface WebSocketRounds {
  subjects: readonly ServerSubject[];
  rounds: number;
  warmupSeconds: number;
  durationSeconds: number;
  clients: number;
  log: (line: string) => void;
}

/** The bench:echo action as WebSocket messages on every subject's /ws, in alternating rounds: round trips/s, p50, p99 and CPU per message. */
export function measureWebSocketServers(options: WebSocketRounds): Promise<Map<string, Sample[]>> {
  const { clients } = options;
  return measureServers({
    subjects: options.subjects,
    rounds: options.rounds,
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    async ready(port, server) {
      await server.waitForHttp(`http://127.0.0.1:${port}${ECHO_PATH}?${ECHO_QUERY}`);
      const url = `ws://127.0.0.1:${port}/ws`;
      await probeWebSocket(url);
      return url;
    },
    async load(url, seconds) {
      const measured = await measureWebSocket({ url, clients, durationSeconds: seconds, action: "bench:echo", params: ECHO_PARAMS });
      return { sample: { mps: measured.messagesPerSecond, p50: measured.p50Ms, p99: measured.p99Ms }, calls: measured.roundTrips };
    },
    log: options.log,
  });
}
