import { context, propagation, trace } from "@opentelemetry/api";
import { isTracing } from "../core/tracing";

/** The part of the Node SDK Herald uses; the SDK itself is required only when traces are exported. */
interface StartedSdk {
  shutdown(): Promise<void>;
}

/**
 * Whether this process exports traces: an OTLP endpoint is set (the common one or the traces one)
 * and the SDK is not disabled. Read from the process's environment, as the SDK reads the rest.
 */
export function tracesExportConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** The service name Herald gives when the environment names none (OTEL_SERVICE_NAME, or service.name in OTEL_RESOURCE_ATTRIBUTES). */
export function defaultServiceName(env: NodeJS.ProcessEnv, appName: string | undefined): string | undefined {
  if (env.OTEL_SERVICE_NAME?.trim()) return undefined;
  const attributes = env.OTEL_RESOURCE_ATTRIBUTES ?? "";
  if (attributes.split(",").some((pair) => pair.split("=")[0]?.trim() === "service.name")) return undefined;
  return appName;
}

let started: StartedSdk | undefined;
let holders = 0;

/**
 * Starts the OpenTelemetry Node SDK for traces, once per process, when the environment asks for
 * an export and no tracer provider is registered yet (an app that started its own SDK keeps it).
 * The SDK reads every other OTEL_* variable itself: protocol, headers, sampler, batch settings,
 * resource. It starts no metric reader and no log processor: metrics are Herald's own
 * MeterProvider, and logs stay pino's.
 */
export function startTracesSdk(appName: () => string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  if (started || !tracesExportConfigured(env) || isTracing()) return;
  const { NodeSDK } = require("@opentelemetry/sdk-node") as typeof import("@opentelemetry/sdk-node");
  const serviceName = defaultServiceName(env, appName());
  const sdk = new NodeSDK({
    ...(serviceName ? { serviceName } : {}),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  started = sdk;
}

/** Counts a server that uses the process's SDK, so that the last one to stop shuts it down; false when Herald started none. */
export function holdTracesSdk(): boolean {
  if (!started) return false;
  holders += 1;
  return true;
}

/**
 * Lets go of the SDK for one server; the last one flushes the spans still batched and shuts it
 * down, and unregisters it, so a later server in the same process may start it again.
 */
export async function releaseTracesSdk(): Promise<void> {
  if (!started || holders === 0) return;
  holders -= 1;
  if (holders > 0) return;
  const sdk = started;
  started = undefined;
  try {
    await sdk.shutdown();
  } finally {
    trace.disable();
    propagation.disable();
    context.disable();
  }
}
