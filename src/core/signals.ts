import { ExitCode } from "./constants";
import type { Logger } from "./logger";

/** What the signals stop: a server, or `herald dev`'s server of the moment, which may be none. */
export interface Stoppable {
  readonly logger: Logger | undefined;
  stop(): Promise<void>;
}

/** SIGINT/SIGTERM stop the server gracefully; a second signal forces the exit. */
export function installSignalHandlers(target: Stoppable, exit: (code: number) => void = process.exit): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      target.logger?.warn({ signal }, "second signal: exiting now");
      exit(ExitCode.error);
      return;
    }
    stopping = true;
    target.logger?.info({ signal }, "stopping");
    target.stop().then(
      () => exit(ExitCode.success),
      (error: unknown) => {
        target.logger?.error({ err: error }, "stop failed");
        exit(ExitCode.error);
      },
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}
