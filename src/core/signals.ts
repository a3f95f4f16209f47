import { ExitCode } from "./constants";
import type { Logger } from "./logger";

/** What the signals stop: a server, or `herald dev`'s server of the moment, which may be none. */
export interface Stoppable {
  readonly logger: Logger | undefined;
  stop(): Promise<void>;
}

/**
 * SIGINT/SIGTERM stop the server gracefully; a second signal forces the exit. Returns what starts
 * the same graceful stop for another reason (a cluster's primary asks), which never forces it
 * and does not count as the first signal.
 */
export function installSignalHandlers(target: Stoppable, exit: (code: number) => void = process.exit): (reason: string) => void {
  let stopping = false;
  const stop = (fields: Record<string, unknown>) => {
    stopping = true;
    target.logger?.info(fields, "stopping");
    target.stop().then(
      () => exit(ExitCode.success),
      (error: unknown) => {
        target.logger?.error({ err: error }, "stop failed");
        exit(ExitCode.error);
      },
    );
  };
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      target.logger?.warn({ signal }, "second signal: exiting now");
      exit(ExitCode.error);
      return;
    }
    signalled = true;
    // A signal sent to the whole process group (Ctrl-C, a supervisor) reaches a cluster's server
    // process as well as its primary, whose request may come first: it is the same stop.
    if (!stopping) stop({ signal });
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return (reason) => {
    if (!stopping) stop({ reason });
  };
}
