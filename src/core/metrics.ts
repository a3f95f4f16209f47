import type { IncomingMessage, ServerResponse } from "node:http";
import type { Meter } from "@opentelemetry/api";
import type { MeterProvider } from "@opentelemetry/sdk-metrics";
import type { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { RUN_MODE } from "./constants";
import type { Logger } from "./logger";
import type { MetricsSettings } from "./metrics-settings";

/** The instrumentation scope of every instrument Herald makes. */
export const METER_NAME = "herald";

export interface MetricsContext {
  production: boolean;
  runMode: RUN_MODE;
  logger: Logger;
}

/** Where `/metrics` is answered: the web transport's port, the port of its own, or nowhere. */
function scrapePlace(settings: MetricsSettings, runMode: RUN_MODE): "web" | "port" | undefined {
  if (runMode === RUN_MODE.server) return "web";
  return runMode === RUN_MODE.workers && settings.port !== undefined ? "port" : undefined;
}

function hasCredential(settings: MetricsSettings): boolean {
  return settings.token !== undefined || settings.basicAuth !== undefined;
}

/**
 * One server's metrics: its own MeterProvider (never the global one, so that servers sharing a
 * process keep theirs apart), read by the Prometheus exporter that `/metrics` answers from and,
 * with an OTLP endpoint set, by a periodic OTLP export. Off (METRICS=false, a process with nothing
 * to serve or push them to), it has no meter and nothing is recorded; the SDK is then never loaded.
 */
export class Metrics {
  /** What records; undefined when metrics are off. */
  readonly meter: Meter | undefined;
  /** Whether `/metrics` is answered (with its credential where one is asked). */
  readonly scrapable: boolean;
  private readonly provider: MeterProvider | undefined;
  private readonly prometheus: PrometheusExporter | undefined;
  private readonly stops: (() => void)[] = [];

  constructor(
    readonly settings: MetricsSettings,
    context: MetricsContext,
  ) {
    const place = settings.enabled ? scrapePlace(settings, context.runMode) : undefined;
    const withheld = context.production && !hasCredential(settings) && !settings.public;
    this.scrapable = place !== undefined && !withheld;
    if (place && withheld) {
      context.logger.warn(
        "metrics: /metrics answers 404 in production without METRICS_TOKEN or METRICS_BASIC_AUTH; set one, or METRICS_PUBLIC=true to serve it to anyone",
      );
    }
    const pushed = settings.enabled && settings.otlp !== undefined && (context.runMode === RUN_MODE.server || context.runMode === RUN_MODE.workers);
    if (!this.scrapable && !pushed) return;
    // Required here, not above: a process with metrics off does not load the SDK.
    const { buildMeterProvider } = require("./meter-provider") as typeof import("./meter-provider");
    const built = buildMeterProvider(settings, this.scrapable);
    this.provider = built.provider;
    this.prometheus = built.prometheus;
    this.meter = built.provider.getMeter(METER_NAME);
    const { observeRuntime } = require("./runtime-metrics") as typeof import("./runtime-metrics");
    this.stops.push(observeRuntime(this.meter));
  }

  /** Answers a scrape with every instrument's current value, in Prometheus text format. */
  scrape(req: IncomingMessage, res: ServerResponse): void {
    this.prometheus!.getMetricsRequestHandler(req, res);
  }

  /** Releases what observes the runtime and flushes the last OTLP export. */
  async shutdown(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    await this.provider?.shutdown();
  }
}

/** The bucket boundaries of every duration histogram, in seconds: the HTTP semantic conventions' advice. */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
