/**
 * A probe of one backing service; it throws (or rejects) when the service is unusable, and
 * answers "busy" when the service answers but this process has no capacity left for it (a pool
 * whose connections are all checked out).
 */
export type HealthCheck = () => Promise<ServiceLoad | void> | ServiceLoad | void;

export type ServiceLoad = "busy";

export interface HealthCheckOptions {
  /**
   * Recognizes an error that means this service cannot be reached (a refused or dropped
   * connection). An action failing with such an error is answered 503
   * CONNECTION_SERVICE_UNAVAILABLE instead of 500: the caller may retry, nothing is broken.
   */
  isOutage?: (error: unknown) => boolean;
  /**
   * Recognizes an error that means this service is up but this process's share of it is in use
   * (a query that gave up waiting for a pool connection while all of them were checked out). It
   * is asked before `isOutage`: such a call is answered 503 CONNECTION_SERVICE_BUSY, and the
   * process still reports itself healthy.
   */
  isBusy?: (error: unknown) => boolean;
  /**
   * Whether the app cannot serve without this service (true, the default): one that is down makes
   * the process down (`GET /api/status` 503, `GET /readyz` 503). An optional one that is down only
   * makes it degraded: status 200 naming it, and the process stays in its load balancer.
   */
  essential?: boolean;
}

export interface ServiceHealth {
  healthy: boolean;
  /** Present, and true, when the service answers but has no capacity to spare right now. */
  busy?: true;
  /** Present, and true, when the app serves without this service (registered with `essential: false`). */
  optional?: true;
  error?: string;
  latencyMs: number;
}

/** ok: every service is up; degraded: an optional one is down; down: an essential one is. */
export type HealthState = "ok" | "degraded" | "down";

export interface HealthReport {
  /** False when a service the app cannot serve without is down. */
  healthy: boolean;
  status: HealthState;
  /** The services that are down, essential or optional, by name. */
  down: string[];
  services: Record<string, ServiceHealth>;
}

/** What a report says of the essential services that are down (`database is down`); undefined when none is. */
export function essentialOutage(report: HealthReport): string | undefined {
  const down = report.down.filter((service) => !report.services[service]!.optional);
  return down.length === 0 ? undefined : `${down.join(", ")} ${down.length === 1 ? "is" : "are"} down`;
}

/** Why a backing service failed a call: it is down, or it is up and busy. */
export interface ServiceFailure {
  service: string;
  busy: boolean;
}

interface SharedReport {
  report: Promise<HealthReport>;
  /** When the probes finished; undefined while they run. */
  settledAt: number | undefined;
}

/** The backing services of this process (database, Redis …), as registered by their initializers. */
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();
  private readonly classifiers = new Map<string, HealthCheckOptions>();
  private latest: SharedReport | undefined;

  register(service: string, check: HealthCheck, options: HealthCheckOptions = {}): void {
    this.checks.set(service, check);
    this.classifiers.set(service, options);
    this.latest = undefined;
  }

  /** Marks a registered service essential or optional, for an app that cannot serve without one Herald registers as optional. */
  setEssential(service: string, essential: boolean): void {
    const options = this.classifiers.get(service);
    if (!options) throw new Error(`No health check is registered for "${service}"`);
    this.classifiers.set(service, { ...options, essential });
    this.latest = undefined;
  }

  /** The service whose outage the error shows, if a registered one recognizes it. */
  outageBehind(error: unknown): string | undefined {
    const failure = this.failureBehind(error);
    return failure && !failure.busy ? failure.service : undefined;
  }

  /** The service, busy or down, that a registered classifier recognizes behind the error. */
  failureBehind(error: unknown): ServiceFailure | undefined {
    for (const [service, { isBusy, isOutage }] of this.classifiers) {
      if (recognizes(isBusy, error)) return { service, busy: true };
      if (recognizes(isOutage, error)) return { service, busy: false };
    }
    return undefined;
  }

  /**
   * The health of every service. Probes run at most once per `maxAgeMs`: callers within that time
   * of the last probes finishing, or while they run, share their report, so a burst of status
   * calls costs the services one probe each.
   */
  report(timeoutMs = 2000, maxAgeMs = 0): Promise<HealthReport> {
    const latest = this.latest;
    if (latest && (latest.settledAt === undefined || performance.now() - latest.settledAt < maxAgeMs)) return latest.report;
    const shared: SharedReport = { report: this.probe(timeoutMs), settledAt: undefined };
    this.latest = shared;
    void shared.report.finally(() => (shared.settledAt = performance.now()));
    return shared.report;
  }

  private async probe(timeoutMs: number): Promise<HealthReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([service, check]): Promise<[string, ServiceHealth]> => {
        const started = performance.now();
        let timer: NodeJS.Timeout | undefined;
        try {
          const load = await Promise.race([
            Promise.resolve().then(check),
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
            }),
          ]);
          const latencyMs = Math.round(performance.now() - started);
          return [service, { healthy: true, ...(load === "busy" ? { busy: true } : {}), ...this.optionalMark(service), latencyMs }];
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return [service, { healthy: false, ...this.optionalMark(service), error: message, latencyMs: Math.round(performance.now() - started) }];
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const down = entries.filter(([, entry]) => !entry.healthy);
    const healthy = down.every(([, entry]) => entry.optional);
    const status: HealthState = down.length === 0 ? "ok" : healthy ? "degraded" : "down";
    return { healthy, status, down: down.map(([service]) => service), services: Object.fromEntries(entries) };
  }

  private optionalMark(service: string): { optional?: true } {
    return this.classifiers.get(service)?.essential === false ? { optional: true } : {};
  }
}

function recognizes(classifier: ((error: unknown) => boolean) | undefined, error: unknown): boolean {
  try {
    return classifier?.(error) === true;
  } catch {
    // A classifier that fails recognizes nothing.
    return false;
  }
}
