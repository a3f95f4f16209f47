import cluster, { type Worker } from "node:cluster";
import { ExitCode } from "../core/constants";
import type { Logger } from "../core/logger";

/** What a server process tells the primary once it serves, and what the primary asks of it at shutdown. */
const READY = "herald:ready";
const STOP = "herald:stop";

/** Restart delays of a process that keeps dying: doubled each time, from the first to the last. */
const FIRST_RESTART_MS = 1000;
const LONGEST_RESTART_MS = 30_000;
/** A process that served this long before it died is restarted as if it had never died before. */
const STEADY_AFTER_MS = 60_000;

interface Slot {
  /** 1 … n: which of the processes this is, kept across its restarts (`HERALD_PROCESS_INDEX`). */
  readonly index: number;
  worker: Worker | undefined;
  startedAt: number;
  /** Deaths in a row, each less than STEADY_AFTER_MS after its start. */
  deaths: number;
  restart: NodeJS.Timeout | undefined;
}

/**
 * The primary of `herald start --processes <n>`: runs n server processes on one port (node:cluster
 * hands each new connection to the next process in turn), restarts one that dies with a backoff,
 * and at SIGTERM or SIGINT asks each to stop gracefully and waits for all of them; a second signal
 * kills them. A process that dies before any has started serving stops the cluster instead: the
 * app cannot boot, and restarting it would only repeat the error.
 */
export class ProcessCluster {
  private readonly slots: Slot[];
  private stopping = false;
  private served = false;
  private failedBoot = false;
  private readonly finished: Promise<number>;
  private finish!: (code: number) => void;
  private failedExits = 0;

  /** `env`: what every process gets beside this process's environment (the secrets they must share). */
  constructor(
    count: number,
    private readonly logger: Logger,
    private readonly env: Record<string, string> = {},
  ) {
    this.slots = Array.from({ length: count }, (_, i) => ({ index: i + 1, worker: undefined, startedAt: 0, deaths: 0, restart: undefined }));
    this.finished = new Promise((resolve) => (this.finish = resolve));
  }

  /** Starts every process; resolves with the exit code once all have stopped. */
  run(): Promise<number> {
    this.logger.info({ processes: this.slots.length }, "starting server processes");
    for (const slot of this.slots) this.fork(slot);
    return this.finished;
  }

  /** Asks every process to stop as at SIGTERM; resolves with the exit code once all have. */
  stop(): Promise<number> {
    if (!this.stopping) {
      this.stopping = true;
      for (const slot of this.slots) {
        clearTimeout(slot.restart);
        slot.restart = undefined;
        const worker = slot.worker;
        if (!worker) continue;
        if (worker.isConnected()) worker.send(STOP);
        else worker.process.kill("SIGTERM");
      }
      this.finishIfAllExited();
    }
    return this.finished;
  }

  /** Kills every process at once: the second signal. */
  kill(): void {
    for (const slot of this.slots) slot.worker?.process.kill("SIGKILL");
  }

  private fork(slot: Slot): void {
    slot.restart = undefined;
    slot.startedAt = performance.now();
    const worker = cluster.fork({ ...this.env, HERALD_PROCESS_INDEX: String(slot.index) });
    slot.worker = worker;
    worker.on("message", (message: unknown) => {
      if (message !== READY) return;
      if (!this.served) this.logger.info({ processes: this.slots.length }, "server processes started");
      this.served = true;
    });
    worker.once("exit", (code: number | null, signal: string | null) => this.exited(slot, worker, code, signal));
  }

  private exited(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    if (slot.worker === worker) slot.worker = undefined;
    const fields = { process: slot.index, pid: worker.process.pid, code, signal };
    if (this.stopping) {
      if (code !== 0) this.failedExits += 1;
      this.logger.debug(fields, "server process stopped");
      return this.finishIfAllExited();
    }
    if (!this.served) {
      this.logger.error(fields, "a server process exited before any started serving: stopping the others");
      this.failedBoot = true;
      void this.stop();
      return;
    }
    if (performance.now() - slot.startedAt >= STEADY_AFTER_MS) slot.deaths = 0;
    const delayMs = Math.min(FIRST_RESTART_MS * 2 ** slot.deaths, LONGEST_RESTART_MS);
    slot.deaths += 1;
    this.logger.warn({ ...fields, restartInMs: delayMs }, "server process exited: restarting it");
    slot.restart = setTimeout(() => this.fork(slot), delayMs);
  }

  private finishIfAllExited(): void {
    if (this.slots.some((slot) => slot.worker !== undefined)) return;
    this.finish(this.failedBoot || this.failedExits > 0 ? ExitCode.error : ExitCode.success);
  }
}

/** Whether this process is one of the server processes a `herald start --processes` primary runs. */
export function isServerProcess(): boolean {
  return cluster.isWorker;
}

/** Closes a server process's channel to its primary, which would otherwise keep it running. */
export function leaveCluster(): void {
  if (cluster.isWorker && process.connected) process.disconnect();
}

/**
 * In a server process of a cluster: tells the primary that it serves, and stops (as at the first
 * SIGTERM) when the primary asks or is gone.
 */
export function serveInCluster(requestStop: (reason: string) => void): void {
  process.on("message", (message: unknown) => {
    if (message === STOP) requestStop("the primary process asked");
  });
  // The primary died without asking (SIGKILL): nothing would stop this process any more.
  process.once("disconnect", () => requestStop("the primary process is gone"));
  process.send?.(READY);
}
