import { injectable } from "tsyringe";
import type { Initializer } from "../core/initializer";
import { holdTracesSdk, releaseTracesSdk } from "./traces-sdk";

/**
 * Holds the process's traces SDK (started by the composition root, see startTracesSdk) for one
 * server. First to initialize, so last to stop: the spans of a shutdown's last calls are flushed.
 */
@injectable()
export class TracesInitializer implements Initializer {
  readonly name = "traces";
  private holding = false;

  register(): void {
    this.holding = holdTracesSdk();
  }

  async stop(): Promise<void> {
    if (!this.holding) return;
    this.holding = false;
    await releaseTracesSdk();
  }
}
