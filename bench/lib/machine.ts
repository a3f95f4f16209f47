import { availableParallelism, cpus, totalmem } from "node:os";
import { subjectNode } from "./subject-node";

export interface Machine {
  cpuModel: string;
  /** What `nproc` prints: the cores this process may use. */
  nproc: number;
  /** The Node.js the subjects (servers, workers, CLI runs) ran on: what the results are about. */
  node: string;
  /** The Node.js of the harness and its load generators, which `--node=` does not change. */
  harnessNode: string;
  platform: string;
  memoryGiB: number;
}

export function describeMachine(): Machine {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    nproc: availableParallelism(),
    node: subjectNode.version,
    harnessNode: process.version,
    platform: `${process.platform} ${process.arch}`,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
  };
}
