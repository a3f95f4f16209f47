import { MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from "@opentelemetry/sdk-metrics";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { MetricsSettings, OtlpMetricsSettings } from "./metrics-settings";

function otlpReader(otlp: OtlpMetricsSettings): IMetricReader {
  const { OTLPMetricExporter } =
    otlp.protocol === "http/json"
      ? (require("@opentelemetry/exporter-metrics-otlp-http") as typeof import("@opentelemetry/exporter-metrics-otlp-http"))
      : (require("@opentelemetry/exporter-metrics-otlp-proto") as typeof import("@opentelemetry/exporter-metrics-otlp-proto"));
  return new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url: otlp.url, timeoutMillis: otlp.timeoutMs }),
    exportIntervalMillis: otlp.intervalMs,
    exportTimeoutMillis: Math.min(otlp.timeoutMs, otlp.intervalMs),
  });
}

/**
 * A server's MeterProvider: the Prometheus exporter (which never opens a port of its own:
 * `/metrics` is Herald's) when metrics are scraped, the OTLP export when an endpoint is set.
 */
export function buildMeterProvider(settings: MetricsSettings, scraped: boolean): { provider: MeterProvider; prometheus?: PrometheusExporter } {
  const prometheus = scraped ? new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true }) : undefined;
  const readers: IMetricReader[] = [...(prometheus ? [prometheus] : []), ...(settings.otlp ? [otlpReader(settings.otlp)] : [])];
  const provider = new MeterProvider({ resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }), readers });
  return prometheus ? { provider, prometheus } : { provider };
}
