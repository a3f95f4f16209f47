import { setTimeout as sleep } from "node:timers/promises";
import type WebSocket from "ws";
import { probeWebSocket } from "../load/ws-probe";
import { openIdleSockets } from "../load/ws-round-trips";
import { freePort, ProcessSpec, ServerProcess } from "../lib/processes";
import { compare } from "../lib/comparison";
import { emptyResult, type Column } from "../lib/results";
import { alternate, rowsOf, type Subject } from "../lib/rounds";
import type { Scenario } from "../lib/scenario";
import { baselineSpec, heraldSpec } from "../lib/subjects";
import { ECHO_PATH, ECHO_QUERY } from "../shared/echo";

interface MemorySubject extends Subject {
  spec(port: number): ProcessSpec;
}

const SUBJECTS: MemorySubject[] = [
  { subject: "herald", label: "Herald", spec: (port) => heraldSpec("Herald", { env: { PORT: String(port) }, gcHook: true }) },
  { subject: "ws", label: "raw ws", spec: (port) => baselineSpec("raw ws", "ws.ts", { PORT: String(port) }, true) },
];

const COLUMNS: Column[] = [
  { key: "perConnection", title: "bytes/connection", digits: 0 },
  { key: "idleMb", title: "RSS before, MB", digits: 1 },
  { key: "loadedMb", title: "RSS with sockets, MB", digits: 1 },
];

const MB = 1024 ** 2;

/** Resident size after a full GC in the server (its GC hook runs on SIGUSR2), once it has settled. */
async function settledRss(server: ServerProcess): Promise<number> {
  server.signal("SIGUSR2");
  await sleep(500);
  return server.memory().rss;
}

/** What each idle WebSocket connection costs the server, measured from RSS with 5000 open. */
export const memoryScenario: Scenario = {
  id: "memory",
  title: "Idle WebSocket memory",
  async run({ settings, log }) {
    const { rounds, connections } = settings.memory;
    const result = emptyResult(this.id, this.title, settings.memory);
    const samples = await alternate(
      SUBJECTS,
      rounds,
      async (subject) => {
        const port = await freePort();
        const server = new ServerProcess(subject.spec(port));
        let sockets: WebSocket[] = [];
        try {
          await server.waitForHttp(`http://127.0.0.1:${port}${ECHO_PATH}?${ECHO_QUERY}`);
          const url = `ws://127.0.0.1:${port}/ws`;
          // One connection opened and served first, so lazily loaded code is not counted per socket.
          await probeWebSocket(url);
          const before = await settledRss(server);
          sockets = await openIdleSockets(url, connections);
          const after = await settledRss(server);
          server.assertRunning();
          if (!Number.isFinite(before) || !Number.isFinite(after)) throw new Error("resident memory is only read on Linux (/proc)");
          return { perConnection: (after - before) / connections, idleMb: before / MB, loadedMb: after / MB };
        } finally {
          for (const socket of sockets) socket.terminate();
          await server.stop();
        }
      },
      log,
    );
    result.columns = COLUMNS;
    result.rows = rowsOf(SUBJECTS, samples, COLUMNS);
    result.comparisons = [compare(result.rows, "herald", "ws", "perConnection", "lower")];
    result.notes.push(`${connections} idle connections; RSS read after a full GC in the server; a fresh server per round`);
    return result;
  },
};
