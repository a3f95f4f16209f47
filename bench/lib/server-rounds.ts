import { freePort, type ProcessSpec, ServerProcess, stopAll } from "./processes";
import { alternate, type Sample, type Subject } from "./rounds";

export interface ServerSubject extends Subject {
  spec(port: number): ProcessSpec;
}

export interface ServerRounds<S extends ServerSubject> {
  subjects: readonly S[];
  rounds: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Waits until the server on `port` serves; returns where the load goes (a URL). */
  ready(port: number, server: ServerProcess): Promise<string>;
  /** One run of load against `target` for `seconds`: its sample and how many calls the server answered. */
  load(target: string, seconds: number): Promise<{ sample: Sample; calls: number }>;
  log: (line: string) => void;
}

/**
 * Starts every subject's server on a free port and warms each up, then loads them in alternating
 * rounds. Each sample also gets `cpuUs`, the server's CPU time per call. Stops every server.
 */
export async function measureServers<S extends ServerSubject>(options: ServerRounds<S>): Promise<Map<string, Sample[]>> {
  const started: ServerProcess[] = [];
  const servers = new Map<string, { process: ServerProcess; target: string }>();
  try {
    for (const subject of options.subjects) {
      const port = await freePort();
      const process = new ServerProcess(subject.spec(port));
      started.push(process);
      const target = await options.ready(port, process);
      servers.set(subject.subject, { process, target });
      if (options.warmupSeconds > 0) await options.load(target, options.warmupSeconds);
    }
    return await alternate(
      options.subjects,
      options.rounds,
      async (subject) => {
        const server = servers.get(subject.subject)!;
        server.process.assertRunning();
        const cpuBefore = server.process.cpuSeconds();
        const { sample, calls } = await options.load(server.target, options.durationSeconds);
        return { ...sample, cpuUs: ((server.process.cpuSeconds() - cpuBefore) * 1e6) / calls };
      },
      options.log,
    );
  } finally {
    await stopAll(started);
  }
}
