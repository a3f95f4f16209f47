import { essentialOutage } from "./health";
import { readHealthProbing } from "./health-settings";
import type { HeraldServer } from "./server";

/** Whether the process should be sent traffic, and if not, why. */
export type Readiness = { ready: true } | { ready: false; reason: string };

/** Why a process that has not started, or has begun to stop, is not ready. */
function notServing(server: HeraldServer): Readiness | undefined {
  const { status } = server;
  if (status === "started") return undefined;
  return { ready: false, reason: status === "stopping" || status === "stopped" ? "shutting down" : "starting" };
}

/**
 * The readiness of a server: ready once it has started and while every essential service is up
 * (one round of health probes is shared with `GET /api/status` for `STATUS_CACHE_MS`); not ready
 * from the moment it begins to stop. An optional service that is down leaves it ready: the
 * balancer would gain nothing by pulling every node for an outage they all share.
 */
export function serverReadiness(server: HeraldServer): () => Promise<Readiness> {
  let probing: ReturnType<typeof readHealthProbing> | undefined;
  return async () => {
    const before = notServing(server);
    if (before) return before;
    probing ??= readHealthProbing(server.config);
    const report = await server.health.report(probing.timeoutMs, probing.cacheMs);
    // The stop may have begun while the services were probed.
    const after = notServing(server);
    if (after) return after;
    const outage = essentialOutage(report);
    return outage === undefined ? { ready: true } : { ready: false, reason: outage };
  };
}
