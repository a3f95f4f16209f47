import type { ActionDefinition } from "./core/action";
import { HeraldServer, InitializerClass, ServerOptions } from "./core/server";
import { StatusAction } from "./core/status-action";
import { HttpInitializer } from "./transports/http/http-initializer";
import { SessionsInitializer } from "./sessions/sessions-initializer";
import { TasksInitializer } from "./transports/tasks/tasks-initializer";
import { TaskWorkersInitializer } from "./transports/tasks/task-workers-initializer";
import { OpenApiInitializer } from "./openapi/openapi-initializer";
import { McpInitializer } from "./transports/mcp/mcp-initializer";
import { RUN_MODE } from "./core/constants";
import { ChannelsInitializer } from "./channels/channels-initializer";
import { WebSocketInitializer } from "./transports/websocket/websocket-initializer";
import { RateLimitInitializer } from "./middleware/rate-limit-initializer";
import { IdempotencyInitializer } from "./idempotency/idempotency-initializer";
import { AuthorizationServerInitializer } from "./auth/auth-initializer";
import { CliSocketInitializer } from "./transports/cli/cli-socket-initializer";
import { MetricsPortInitializer } from "./transports/http/metrics-port-initializer";
import { DatabasePoolMetricsInitializer } from "./schema/database-pool-metrics";
import { DatabaseInitializer } from "./database/database-initializer";
import { TracesInitializer } from "./observability/traces-initializer";
import { startTracesSdk } from "./observability/traces-sdk";
import { findAppDir } from "./core/app-config";
import { appManifest } from "./core/app-manifest";
import { resolveEnvironment } from "./core/config";
import { loadEnvFilesIntoProcess } from "./core/env-files";

/**
 * The framework initializers every app gets, one per transport. Transports register here and
 * nowhere else, so `core/` never imports a transport. Their boot order is each one's `dependsOn`
 * (see orderInitializers); this list's order only decides between those that need nothing of
 * each other.
 */
export const BUILTIN_INITIALIZERS: InitializerClass[] = [
  // First, so it stops last, once every call's span has ended.
  TracesInitializer,
  DatabaseInitializer,
  ChannelsInitializer,
  SessionsInitializer,
  TasksInitializer,
  AuthorizationServerInitializer,
  OpenApiInitializer,
  McpInitializer,
  RateLimitInitializer,
  IdempotencyInitializer,
  TaskWorkersInitializer,
  HttpInitializer,
  WebSocketInitializer,
  CliSocketInitializer,
  DatabasePoolMetricsInitializer,
  MetricsPortInitializer,
];

/** Actions every app serves, such as `status`. */
export const BUILTIN_ACTIONS: (new (...args: any[]) => ActionDefinition)[] = [StatusAction];

/**
 * Starts exporting traces before anything else, when the environment asks for it (see
 * docs/observability.md): the server's logger then carries trace ids from its first line.
 */
function startTraces(options: Pick<ServerOptions, "appDir" | "env">): void {
  const appDir = options.appDir ?? findAppDir();
  // The SDK reads OTEL_* from process.env: an app's env files set them too.
  if (appDir && !options.env) loadEnvFilesIntoProcess(appDir);
  startTracesSdk(() => resolveEnvironment(options.env ?? process.env).NAME ?? (appDir ? appManifest(appDir).name : undefined));
}

/** A server with every framework transport, for the given app. */
export function createHerald(options: Omit<ServerOptions, "builtins" | "builtinActions"> = {}): HeraldServer {
  startTraces(options);
  return new HeraldServer({ ...options, builtins: BUILTIN_INITIALIZERS, builtinActions: BUILTIN_ACTIONS });
}

export async function startHerald(options: Omit<ServerOptions, "builtins" | "builtinActions"> = {}): Promise<HeraldServer> {
  const server = createHerald(options);
  return server.start();
}

/**
 * `herald mcp`: boots the app in the `mcp` run mode (logs on stderr, no web server) and speaks
 * MCP over stdio until the client disconnects.
 */
export async function serveMcpStdio(options: Omit<ServerOptions, "builtins" | "builtinActions" | "runMode"> = {}): Promise<void> {
  const server = await startHerald({ ...options, runMode: RUN_MODE.mcp });
  // Required here, not above: the MCP SDK is large and no other command needs it.
  const { serveMcpOverStdio } = require("./transports/mcp/stdio") as typeof import("./transports/mcp/stdio");
  try {
    await serveMcpOverStdio(server);
  } finally {
    await server.stop();
  }
}
