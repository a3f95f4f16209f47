import { setTimeout as delay } from "node:timers/promises";
import { z } from "zod";
import { type HeraldConfig, readSettings } from "./config";

const shutdownSettings = z.object({ SHUTDOWN_DELAY: z.coerce.number().int().min(0).default(0) });

/**
 * How long `stop` waits, readiness already turned 503, before it stops anything, in ms: a load
 * balancer that probes `/readyz` sees the 503 and stops sending traffic while every transport
 * still serves (Kubernetes' preStop pattern).
 */
export function readShutdownDelay(config: Pick<HeraldConfig, "raw">): number {
  return readSettings(shutdownSettings, config).SHUTDOWN_DELAY;
}

/** Waits out the delay; a delay of 0 costs the stop no turn of the event loop. */
export async function waitOutShutdownDelay(delayMs: number): Promise<void> {
  if (delayMs > 0) await delay(delayMs);
}
