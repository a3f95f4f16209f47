import { errorBody, toTypedError } from "../../core/error-body";

/**
 * What a refused command line (an unknown command or flag, an app that cannot load) prints: its
 * error body on stdout, and its message on stderr too where stdout is not a terminal (piped, or
 * read by a program), so that a terminal shows it once.
 */
export function commandLineRefusal(thrown: unknown, options: { terminal: boolean; production: boolean }): { stdout: string; stderr?: string } {
  const error = toTypedError(thrown, options.production);
  const stdout = `${JSON.stringify(errorBody(error, true), null, options.terminal ? 2 : undefined)}\n`;
  return options.terminal ? { stdout } : { stdout, stderr: `${error.message}\n` };
}
