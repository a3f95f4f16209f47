import type { ExitCode } from "../core/constants";

/** Where a command writes its result and its exit code: the process's stdout, or a test's buffer. */
export interface CommandOutput {
  write(text: string): void;
  exit(code: ExitCode): void;
}
