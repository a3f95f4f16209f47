import { z } from "zod";
import { HeraldConfig, readSettings } from "./config";
import { ErrorType, TypedError } from "./errors";

const flag = z.enum(["true", "false"]);
const port = z.coerce.number().int().min(0).max(65535);
const positiveMs = z.coerce.number().int().min(1);
const otlpProtocol = z.enum(["http/protobuf", "http/json", "grpc"]);

const environmentSchema = z.object({
  METRICS: flag.default("true"),
  // Read as they are: a value in a refusal would echo the secret into the boot error.
  METRICS_TOKEN: z.string().optional(),
  METRICS_BASIC_AUTH: z.string().optional(),
  METRICS_PUBLIC: flag.default("false"),
  METRICS_PORT: port.optional(),
  OTEL_SDK_DISABLED: z.string().optional(),
  OTEL_METRICS_EXPORTER: z.string().optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol.optional(),
  OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: otlpProtocol.optional(),
  OTEL_METRIC_EXPORT_INTERVAL: positiveMs.default(60_000),
  OTEL_METRIC_EXPORT_TIMEOUT: positiveMs.default(30_000),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
});

/** The shortest METRICS_TOKEN taken: a scraper's credential, not a password a person types. */
export const MIN_METRICS_TOKEN = 16;

export interface OtlpMetricsSettings {
  /** Where metrics are pushed: the metrics endpoint as given, or the base endpoint with `/v1/metrics`. */
  url: string;
  protocol: "http/protobuf" | "http/json";
  intervalMs: number;
  timeoutMs: number;
}

export interface MetricsSettings {
  /** METRICS: false records nothing and serves no `/metrics`. */
  enabled: boolean;
  /** A bearer token `/metrics` asks for. */
  token?: string;
  /** `user:password` that `/metrics` takes as Basic authentication. */
  basicAuth?: { user: string; password: string };
  /** Served to anyone in production, without a credential, on purpose. */
  public: boolean;
  /** The port a process without the web transport (`--workers-only`) serves `/metrics` on; none when absent. */
  port?: number;
  /** Set when metrics are also pushed over OTLP. */
  otlp?: OtlpMetricsSettings;
  serviceName: string;
}

function configError(message: string, key: string): TypedError {
  return new TypedError({ message: `Invalid environment variable ${key}: ${message}`, type: ErrorType.CONFIG_ERROR, key });
}

function isWord(value: string | undefined, word: string): boolean {
  return value?.trim().toLowerCase() === word;
}

function otlpSettings(values: z.output<typeof environmentSchema>): OtlpMetricsSettings | undefined {
  // Read as the OpenTelemetry SDK (and Herald's traces) read them: case-insensitive, spaces ignored.
  if (isWord(values.OTEL_SDK_DISABLED, "true") || isWord(values.OTEL_METRICS_EXPORTER, "none")) return undefined;
  const base = values.OTEL_EXPORTER_OTLP_ENDPOINT;
  const url = values.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT ?? (base ? `${base.replace(/\/+$/, "")}/v1/metrics` : undefined);
  if (!url) return undefined;
  const protocol = values.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ?? values.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  if (protocol === "grpc") throw configError("grpc is not supported for metrics; use http/protobuf or http/json", "OTEL_EXPORTER_OTLP_PROTOCOL");
  return { url, protocol, intervalMs: values.OTEL_METRIC_EXPORT_INTERVAL, timeoutMs: values.OTEL_METRIC_EXPORT_TIMEOUT };
}

/** `user:password`, split at its first colon; undefined when either side is empty. */
function userAndPassword(credential: string): { user: string; password: string } | undefined {
  const [user, ...rest] = credential.split(":");
  const password = rest.join(":");
  return user && password ? { user, password } : undefined;
}

/** The metrics settings, from `METRICS_*` and the standard `OTEL_*` variables. */
export function readMetricsSettings(config: Pick<HeraldConfig, "raw" | "name">): MetricsSettings {
  const values = readSettings(environmentSchema, config);
  const { METRICS_TOKEN: token, METRICS_BASIC_AUTH: basic } = values;
  if (token !== undefined && token.length < MIN_METRICS_TOKEN) throw configError(`must be at least ${MIN_METRICS_TOKEN} characters long`, "METRICS_TOKEN");
  const basicAuth = basic === undefined ? undefined : userAndPassword(basic);
  if (basic !== undefined && !basicAuth) throw configError("must be user:password", "METRICS_BASIC_AUTH");
  const otlp = otlpSettings(values);
  return {
    enabled: values.METRICS === "true",
    ...(token ? { token } : {}),
    ...(basicAuth ? { basicAuth } : {}),
    public: values.METRICS_PUBLIC === "true",
    ...(values.METRICS_PORT !== undefined ? { port: values.METRICS_PORT } : {}),
    ...(otlp ? { otlp } : {}),
    serviceName: values.OTEL_SERVICE_NAME ?? config.name,
  };
}
