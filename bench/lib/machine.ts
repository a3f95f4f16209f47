import { availableParallelism, cpus, totalmem } from "node:os";

export interface Machine {
  cpuModel: string;
  /** What `nproc` prints: the cores this process may use. */
  nproc: number;
  node: string;
  platform: string;
  memoryGiB: number;
}

export function describeMachine(): Machine {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    nproc: availableParallelism(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
  };
}
