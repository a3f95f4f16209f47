import { injectable } from "tsyringe";
import { z } from "zod";
import { appVersion } from "./app-manifest";
import type { ActionDefinition, WebConfig } from "./action";
import { HTTP_METHOD } from "./constants";
import { ErrorType, TypedError } from "./errors";
import { essentialOutage, type HealthReport, type ServiceHealth } from "./health";
import { type HealthProbing, readHealthProbing } from "./health-settings";
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
  optional: z.literal(true).optional().describe("The app serves without this service: down, it makes the server degraded, not down"),
  error: z.string().optional().describe("Why the probe failed; never in production"),
  latencyMs: z.number(),
});

/** What `status` answers, for its OpenAPI operation and MCP tool. */
const statusOutputs = z.object({
  name: z.string(),
  version: z.string(),
  uptime: z.number().describe("Seconds since this server booted"),
  healthy: z.boolean().describe("False when a service the app cannot serve without is down"),
  status: z.enum(["ok", "degraded", "down"]).describe("degraded: an optional service is down; down: an essential one is"),
  down: z.array(z.string()).describe("The services that are down, essential or optional"),
  services: z.record(z.string(), serviceHealth),
});

/**
 * The report as anyone may read it in production: which services are up, busy or down, without
 * the error texts, which name hosts, ports and users of the backing services.
 */
function withoutDetail(report: HealthReport): HealthReport {
  const services: Record<string, ServiceHealth> = {};
  for (const [service, { error: _detail, ...health }] of Object.entries(report.services)) services[service] = health;
  return { ...report, services };
}

/**
 * The built-in `status` action (`GET /api/status` over HTTP): name, version, uptime and the
 * health of every registered backing service. When an essential one is down it fails with
 * CONNECTION_SERVICE_UNAVAILABLE (503), whose `value` is this same report; an optional one down
 * answers 200 with `status: "degraded"`.
 */
@injectable()
export class StatusAction implements ActionDefinition<undefined> {
  readonly name = "status";
  readonly description = "The server's name, version, uptime and the health of its backing services";
  readonly web: WebConfig = { route: "/status", method: HTTP_METHOD.GET };
  readonly outputs = statusOutputs;
  private readonly bootedAt = performance.now();
  private version: string | undefined;
  private readonly probing: HealthProbing;

  constructor(private readonly server: HeraldServer) {
    this.probing = readHealthProbing(server.config);
  }

  async run(): Promise<StatusResponse> {
    const { config, health } = this.server;
    this.version ??= appVersion(this.server.app.root);
    const probed = await health.report(this.probing.timeoutMs, this.probing.cacheMs);
    const report = config.production ? withoutDetail(probed) : probed;
    const status: StatusResponse = {
      name: this.server.config.name,
      version: this.version,
      uptime: Math.round(performance.now() - this.bootedAt) / 1000,
      ...report,
    };
    const outage = essentialOutage(report);
    if (outage !== undefined) {
      throw new TypedError({
        message: `Unavailable: ${outage}`,
        type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
        key: "services",
        value: status,
      });
    }
    return status;
  }
}
