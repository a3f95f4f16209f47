import { injectable } from "tsyringe";
import { z } from "zod";
import { appVersion } from "./app-manifest";
import { readSettings } from "./config";
import type { ActionDefinition, WebConfig } from "./action";
import { HTTP_METHOD } from "./constants";
import { ErrorType, TypedError } from "./errors";
import type { HealthReport, ServiceHealth } from "./health";
import { HeraldServer } from "./server";

export interface StatusResponse extends HealthReport {
  name: string;
  version: string;
  /** Seconds since this server booted. */
  uptime: number;
}

const serviceHealth = z.object({
  healthy: z.boolean(),
  busy: z.literal(true).optional().describe("The service answers but has no capacity to spare right now"),
  error: z.string().optional().describe("Why the probe failed; never in production"),
  latencyMs: z.number(),
});

/** What `status` answers, for its OpenAPI operation and MCP tool. */
const statusOutputs = z.object({
  name: z.string(),
  version: z.string(),
  uptime: z.number().describe("Seconds since this server booted"),
  healthy: z.boolean(),
  services: z.record(z.string(), serviceHealth),
});

/** How long a probe may take: 2 s, or half the action timeout when that is shorter, so a hung service is reported down before the status call itself times out. */
function probeTimeout(actionTimeoutMs: number): number {
  const fullWait = 2000;
  return actionTimeoutMs > 0 ? Math.min(fullWait, Math.floor(actionTimeoutMs / 2)) : fullWait;
}

/** How long one round of probes answers every status call: a burst of calls costs each service one probe. */
const statusSettings = z.object({ STATUS_CACHE_MS: z.coerce.number().int().min(0).default(1000) });

/**
 * The report as anyone may read it in production: which services are up, busy or down, without
 * the error texts, which name hosts, ports and users of the backing services.
 */
function withoutDetail(report: HealthReport): HealthReport {
  const services: Record<string, ServiceHealth> = {};
  for (const [service, { error: _detail, ...health }] of Object.entries(report.services)) services[service] = health;
  return { healthy: report.healthy, services };
}

/**
 * The built-in `status` action (`GET /api/status` over HTTP): name, version, uptime and the
 * health of every registered backing service. When one is down it fails with
 * CONNECTION_SERVICE_UNAVAILABLE (503), whose `value` is this same report.
 */
@injectable()
export class StatusAction implements ActionDefinition<undefined> {
  readonly name = "status";
  readonly description = "The server's name, version, uptime and the health of its backing services";
  readonly web: WebConfig = { route: "/status", method: HTTP_METHOD.GET };
  readonly outputs = statusOutputs;
  private readonly bootedAt = performance.now();
  private version: string | undefined;
  private readonly cacheMs: number;

  constructor(private readonly server: HeraldServer) {
    this.cacheMs = readSettings(statusSettings, server.config).STATUS_CACHE_MS;
  }

  async run(): Promise<StatusResponse> {
    const { config, health } = this.server;
    this.version ??= appVersion(this.server.app.root);
    const probed = await health.report(probeTimeout(config.actionTimeout), this.cacheMs);
    const report = config.production ? withoutDetail(probed) : probed;
    const status: StatusResponse = {
      name: this.server.config.name,
      version: this.version,
      uptime: Math.round(performance.now() - this.bootedAt) / 1000,
      ...report,
    };
    if (!report.healthy) {
      const down = Object.keys(report.services).filter((service) => !report.services[service]!.healthy);
      throw new TypedError({
        message: `Unavailable: ${down.join(", ")} ${down.length === 1 ? "is" : "are"} down`,
        type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
        key: "services",
        value: status,
      });
    }
    return status;
  }
}
