import type { ScenarioResult } from "./results";

export interface Settings {
  http: { rounds: number; warmupSeconds: number; durationSeconds: number; connections: number };
  websocket: { rounds: number; warmupSeconds: number; durationSeconds: number; clients: number };
  tasks: { rounds: number; jobs: number; concurrency: number };
  boot: { rounds: number; sizes: number[] };
  cli: { runs: number };
  memory: { rounds: number; connections: number };
  client: { runs: number; actions: number };
  processes: { rounds: number; warmupSeconds: number; durationSeconds: number; connections: number; clients: number };
}

/** `npm run bench`: under 10 minutes on 2 cores. */
export const FULL: Settings = {
  http: { rounds: 3, warmupSeconds: 2, durationSeconds: 5, connections: 50 },
  websocket: { rounds: 3, warmupSeconds: 2, durationSeconds: 5, clients: 50 },
  tasks: { rounds: 3, jobs: 20_000, concurrency: 10 },
  boot: { rounds: 3, sizes: [10, 100, 1000] },
  cli: { runs: 7 },
  memory: { rounds: 2, connections: 5000 },
  client: { runs: 3, actions: 1000 },
  processes: { rounds: 3, warmupSeconds: 2, durationSeconds: 5, connections: 50, clients: 50 },
};

/** `npm run bench:smoke`: every scenario end to end in seconds, to prove the harness works. */
export const SMOKE: Settings = {
  http: { rounds: 1, warmupSeconds: 0, durationSeconds: 0.5, connections: 4 },
  websocket: { rounds: 1, warmupSeconds: 0, durationSeconds: 0.5, clients: 4 },
  tasks: { rounds: 1, jobs: 100, concurrency: 10 },
  boot: { rounds: 1, sizes: [10] },
  cli: { runs: 1 },
  memory: { rounds: 1, connections: 50 },
  client: { runs: 1, actions: 10 },
  processes: { rounds: 1, warmupSeconds: 0, durationSeconds: 0.5, connections: 4, clients: 4 },
};

export interface ScenarioContext {
  mode: "full" | "smoke";
  settings: Settings;
  /** Progress lines, on stderr, so stdout keeps only the table. */
  log(line: string): void;
  /** When true (CI=true or --require-services), a missing Redis fails the tasks scenario instead of skipping it. */
  servicesRequired: boolean;
  /** Where this run keeps its scratch files (generated apps). */
  scratchDir: string;
}

export interface Scenario {
  id: string;
  title: string;
  run(context: ScenarioContext): Promise<ScenarioResult>;
}

/** Thrown by a scenario whose transport is not there yet: the run goes on and says so. */
export class ScenarioSkipped extends Error {}
