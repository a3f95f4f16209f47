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
}

export interface ServiceHealth {
  healthy: boolean;
  /** Present, and true, when the service answers but has no capacity to spare right now. */
  busy?: true;
  error?: string;
  latencyMs: number;
}

export interface HealthReport {
  healthy: boolean;
  services: Record<string, ServiceHealth>;
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
          return [service, load === "busy" ? { healthy: true, busy: true, latencyMs } : { healthy: true, latencyMs }];
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return [service, { healthy: false, error: message, latencyMs: Math.round(performance.now() - started) }];
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return { healthy: entries.every(([, entry]) => entry.healthy), services: Object.fromEntries(entries) };
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
