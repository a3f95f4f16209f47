import { z } from "zod";
import { type HeraldConfig, readSettings } from "./config";

/** How long one round of probes answers every status call and readiness probe: a burst of them costs each service one probe. */
const healthSettings = z.object({ STATUS_CACHE_MS: z.coerce.number().int().min(0).default(1000) });

export interface HealthProbing {
  /** How long a service's probe may take, in ms. */
  timeoutMs: number;
  /** How long one round of probes is reused, in ms. */
  cacheMs: number;
}

/** How long a probe may take: 2 s, or half the action timeout when that is shorter, so a hung service is reported down before the status call itself times out. */
function probeTimeout(actionTimeoutMs: number): number {
  const fullWait = 2000;
  return actionTimeoutMs > 0 ? Math.min(fullWait, Math.floor(actionTimeoutMs / 2)) : fullWait;
}

/** How `GET /api/status` and `GET /readyz` probe the services, from `STATUS_CACHE_MS` and `ACTION_TIMEOUT`. */
export function readHealthProbing(config: Pick<HeraldConfig, "raw" | "actionTimeout">): HealthProbing {
  return { timeoutMs: probeTimeout(config.actionTimeout), cacheMs: readSettings(healthSettings, config).STATUS_CACHE_MS };
}
