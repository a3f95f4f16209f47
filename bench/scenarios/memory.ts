import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  /** `heapFile`: where the server's GC hook writes its heap in use (bench/servers/gc-on-signal.cjs). */
  spec(port: number, heapFile: string): ProcessSpec;
}

const SUBJECTS: MemorySubject[] = [
  { subject: "herald", label: "Herald", spec: (port, heapFile) => heraldSpec("Herald", { env: { PORT: String(port), BENCH_HEAP_FILE: heapFile }, gcHook: true }) },
  { subject: "ws", label: "raw ws", spec: (port, heapFile) => baselineSpec("raw ws", "ws.ts", { PORT: String(port), BENCH_HEAP_FILE: heapFile }, true) },
];

const COLUMNS: Column[] = [
  { key: "perConnection", title: "bytes/connection", digits: 0 },
  { key: "heapPerConnection", title: "JS heap bytes/connection", digits: 0 },
  { key: "idleMb", title: "RSS before, MB", digits: 1 },
  { key: "loadedMb", title: "RSS with sockets, MB", digits: 1 },
];

const MB = 1024 ** 2;

/** Resident size and JS heap in use after a full GC in the server (its GC hook runs on SIGUSR2), once it has settled. */
async function settledMemory(server: ServerProcess, heapFile: string): Promise<{ rss: number; heap: number }> {
  server.signal("SIGUSR2");
  await sleep(500);
  return { rss: server.memory().rss, heap: Number(readFileSync(heapFile, "utf8")) };
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
        const heapFile = join(tmpdir(), `herald-bench-heap-${process.pid}-${port}`);
        const server = new ServerProcess(subject.spec(port, heapFile));
        let sockets: WebSocket[] = [];
        try {
          await server.waitForHttp(`http://127.0.0.1:${port}${ECHO_PATH}?${ECHO_QUERY}`);
          const url = `ws://127.0.0.1:${port}/ws`;
          // One connection opened and served first, so lazily loaded code is not counted per socket.
          await probeWebSocket(url);
          const before = await settledMemory(server, heapFile);
          sockets = await openIdleSockets(url, connections);
          const after = await settledMemory(server, heapFile);
          server.assertRunning();
          if (!Number.isFinite(before.rss) || !Number.isFinite(after.rss)) throw new Error("resident memory is only read on Linux (/proc)");
          return {
            perConnection: (after.rss - before.rss) / connections,
            heapPerConnection: (after.heap - before.heap) / connections,
            idleMb: before.rss / MB,
            loadedMb: after.rss / MB,
          };
        } finally {
          for (const socket of sockets) socket.terminate();
          await server.stop();
          rmSync(heapFile, { force: true });
        }
      },
      log,
    );
    result.columns = COLUMNS;
    result.rows = rowsOf(SUBJECTS, samples, COLUMNS);
    result.comparisons = [compare(result.rows, "herald", "ws", "perConnection", "lower", 1.15), compare(result.rows, "herald", "ws", "heapPerConnection", "lower", 1.15)];
    result.notes.push(
      `${connections} idle connections; RSS and JS heap in use read after a full GC in the server; a fresh server per round; RSS also holds the young generation's pages that opening the sockets touched, the heap only what the sockets keep`,
    );
    return result;
  },
};
