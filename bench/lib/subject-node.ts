import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

/**
 * The Node.js binary every process under test runs on (servers, workers, CLI runs, tsc), which
 * need not be the one running the harness and its load generators: `--node=<path>` compares
 * Herald on two Node.js versions with the same load generator.
 */
export interface SubjectNode {
  command: string;
  /** What the binary says `--version` is, e.g. "v22.23.3". */
  version: string;
}

export const subjectNode: SubjectNode = { command: process.execPath, version: process.version };

/** Runs the subjects on the binary at `path`; asking its version also proves it starts. */
export function useSubjectNode(path: string): void {
  const command = resolve(path);
  let version: string;
  try {
    version = execFileSync(command, ["--version"], { encoding: "utf8", timeout: 10_000 }).trim();
  } catch (error) {
    throw new Error(`--node=${path}: ${command} --version failed: ${(error as Error).message}`);
  }
  if (!/^v\d+\./.test(version)) throw new Error(`--node=${path}: ${command} --version printed "${version}", not a Node.js version`);
  subjectNode.command = command;
  subjectNode.version = version;
}

/** 24 for "v24.21.0". */
export function majorOf(version: string): number {
  return Number(/^v(\d+)\./.exec(version)?.[1] ?? Number.NaN);
}
