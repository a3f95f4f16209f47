/** A probe of one backing service; it throws (or rejects) when the service is unusable. */
export type HealthCheck = () => Promise<void> | void;

export interface HealthCheckOptions {
  /**
   * Recognizes an error that means this service cannot be reached (a refused or dropped
   * connection). An action failing with such an error is answered 503
   * CONNECTION_SERVICE_UNAVAILABLE instead of 500: the caller may retry, nothing is broken.
   */
  isOutage?: (error: unknown) => boolean;
}

export interface HealthReport {
  healthy: boolean;
  services: Record<string, { healthy: boolean; error?: string; latencyMs: number }>;
}

/** The backing services of this process (database, Redis …), as registered by their initializers. */
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();
  private readonly outages = new Map<string, (error: unknown) => boolean>();

  register(service: string, check: HealthCheck, options: HealthCheckOptions = {}): void {
    this.checks.set(service, check);
    if (options.isOutage) this.outages.set(service, options.isOutage);
    else this.outages.delete(service);
  }

  /** The service whose outage the error shows, if a registered one recognizes it. */
  outageBehind(error: unknown): string | undefined {
    for (const [service, isOutage] of this.outages) {
      try {
        if (isOutage(error)) return service;
      } catch {
        // A classifier that fails recognizes nothing.
      }
    }
    return undefined;
  }

  async report(timeoutMs = 2000): Promise<HealthReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([service, check]) => {
        const started = performance.now();
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(check),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
            }),
          ]);
          return [service, { healthy: true, latencyMs: Math.round(performance.now() - started) }] as const;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return [service, { healthy: false, error: message, latencyMs: Math.round(performance.now() - started) }] as const;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return { healthy: entries.every(([, entry]) => entry.healthy), services: Object.fromEntries(entries) };
  }
}
