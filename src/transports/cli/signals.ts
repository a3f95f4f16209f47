import { ExitCode } from "../../core/constants";
import type { HeraldServer } from "../../core/server";

/** SIGINT/SIGTERM stop the server gracefully; a second signal forces the exit. */
export function installSignalHandlers(server: HeraldServer, exit: (code: number) => void = process.exit): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      server.logger.warn({ signal }, "second signal: exiting now");
      exit(ExitCode.error);
      return;
    }
    stopping = true;
    server.logger.info({ signal }, "stopping");
    server.stop().then(
      () => exit(ExitCode.success),
      (error: unknown) => {
        server.logger.error({ err: error }, "stop failed");
        exit(ExitCode.error);
      },
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}
