import { errorBody, toTypedError } from "../../core/error-body";

/**
 * What a refused command line (an unknown command or flag, an app that cannot load) prints, once:
 * its error body on stdout, the one place a script reads a command's outcome, as for a failed action.
 */
export function commandLineRefusal(thrown: unknown, options: { terminal: boolean; production: boolean }): { stdout: string } {
  const error = toTypedError(thrown, options.production);
  return { stdout: `${JSON.stringify(errorBody(error, true), null, options.terminal ? 2 : undefined)}\n` };
}
