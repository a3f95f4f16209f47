import "reflect-metadata";

export {
  HTTP_METHOD,
  CHANNEL_NAME_PATTERN,
  MCP_APP_MIME_TYPE,
  MCP_RESPONSE_FORMAT,
  LogFormat,
  LogLevel,
  ExitCode,
  CONNECTION_TYPE,
  RUN_MODE,
} from "./core/constants";
export { ErrorType, ErrorStatusCodes, TypedError, isTypedError } from "./core/errors";
export { LogParams } from "./core/log-params";
export type { ErrorIssue, TypedErrorOptions } from "./core/errors";
export { errorBody, toTypedError } from "./core/error-body";
export type { ErrorBody } from "./core/error-body";
export { Action, Web, Task, Mcp } from "./core/decorators";
export { Service } from "./core/service";
export type { ActionOptions } from "./core/decorators";
export type {
  ActionDefinition,
  ActionInputs,
  ActionOutputs,
  ActionParams,
  ActionResponse,
  ActionTransport,
  McpActionConfig,
  MiddlewareReference,
  TaskConfig,
  WebConfig,
} from "./core/action";
export type { ActionMiddleware, ActionMiddlewareResponse, AfterContext, GlobalMiddleware, GlobalMiddlewareClass, MiddlewareSecurity } from "./core/middleware";
export { Connection } from "./core/connection";
export type { ConnectionInit, ConnectionSession, ProgressReporter } from "./core/connection";
export { ActionRegistry, ACTION_NAME_PATTERN } from "./core/registry";
export type { RegisteredAction } from "./core/registry";
export { Dispatcher } from "./core/dispatcher";
export type { ActionResult, DispatchOptions } from "./core/dispatcher";
export { globLoader } from "./core/loader";
export { rootContainer } from "./core/container";
export type { ProviderOverride } from "./core/container";
export { HeraldConfig, loadConfig, readSettings } from "./core/config";
export { readConcurrentCallLimits } from "./core/concurrent-calls";
export type { ConcurrentCallLimits } from "./core/concurrent-calls";
export { HealthRegistry } from "./core/health";
export { Migrator, MIGRATOR } from "./core/migrator";
export type { MigrationStatus } from "./core/migrator";
export type { HealthCheck, HealthCheckOptions, HealthReport, ServiceHealth, ServiceLoad } from "./core/health";
export type { HttpMount } from "./core/http-mount";
export { Logger } from "./core/logger";
export type { Initializer } from "./core/initializer";
export { defineConfig } from "./core/app-config";
export type { AppConfig } from "./core/app-config";
export { HeraldServer } from "./core/server";
export type { ServerOptions } from "./core/server";
export { safeCompare } from "./core/safe-compare";
export { createHerald, startHerald } from "./herald";

export { secret, isSecret } from "./core/secret";
export { zBooleanFromString } from "./schema/boolean-from-string";
export { paginationInputs, paginationOutputs, paginate } from "./schema/pagination";
export type { PaginatedResult, PaginationOptions, PaginationParams } from "./schema/pagination";
export type { CountResult, PaginateOptions } from "./schema/pagination";
export { zodFromEntity } from "./schema/zod-from-entity";
export { internal, isInternal } from "./schema/internal";
export type { ColumnKeys, ModelSchema, ZodFromEntityOptions } from "./schema/zod-from-entity";
export { zTimestamp } from "./schema/column-schema";
export { zIdOrModel } from "./schema/id-or-model";
export type { IdOrModelOptions } from "./schema/id-or-model";
export { registerDataSource, dataSourceFor } from "./schema/data-sources";

export { SessionStore, SESSION_STORE_TOKEN } from "./sessions/session-store";
export type { SessionData } from "./sessions/session-store";
export { MemorySessionStore } from "./sessions/memory-store";
export type { MemorySessionStoreOptions } from "./sessions/memory-store";
export { RedisSessionStore } from "./sessions/redis-store";
export type { RedisSessionStoreOptions } from "./sessions/redis-store";
export { Session } from "./sessions/session";
export type { SessionIdChange } from "./sessions/session";
export { SessionManager } from "./sessions/session-manager";
export type { SessionCookieChange, SessionManagerOptions } from "./sessions/session-manager";
export { signSessionId, unsignSessionId } from "./sessions/session-cookie";
export { sessionCookieSecurity, SESSION_SECURITY_NAME } from "./sessions/session-security";

export { TaskService } from "./transports/tasks/task-service";
export type { EnqueueOptions, FanOutOptions } from "./transports/tasks/task-service";
export type { Backoff, FanOutProgress, JobError, JobInfo, JobStatus, QueueDriver, QueueStats } from "./transports/tasks/driver";
export type { TaskJobState } from "./transports/tasks/job-runner";

export { generateOpenApiSchemas } from "./openapi/json-schema";
export type { JSONSchema } from "./openapi/json-schema";
export { computeActionsHash } from "./openapi/actions-hash";
export { writeSchemasCache, loadCachedSchemas, openApiCachePath, OPENAPI_CACHE_FILE } from "./openapi/schema-cache";
export { buildOpenApiDocument } from "./openapi/document";
export type { OpenApiDocumentOptions } from "./openapi/document";
export type { ActionSource } from "./openapi/action-source";
export { errorBodySchema } from "./openapi/error-body-schema";

export { buildProgram, runCli } from "./transports/cli/program";
export type { ProgramOptions } from "./transports/cli/program";
export type { CommandOutput } from "./transports/cli/action-command";
export { getValidTypes } from "./transports/cli/generate/generators";
export type {
  GeneratedFile,
  GeneratorContext,
  GeneratorOption,
  PluginGenerator,
} from "./transports/cli/generate/plugin-generator";
export type { GeneratedNames, NameShape } from "./transports/cli/generate/names";

export { Channel } from "./channels/channel";
export type { ChannelDefinition, ChannelMiddleware, ChannelMiddlewareReference } from "./channels/channel";
export type { ChannelEvent, ChannelMessageEvent, ChannelPresenceEvent } from "./channels/channel-event";
export { ChannelPublisher } from "./channels/channel-publisher";
export { ChannelPresence } from "./channels/channel-presence";
export { PubSubDriver, PUBSUB_DRIVER_TOKEN } from "./channels/pubsub-driver";
export type { PubSubHandler } from "./channels/pubsub-driver";
export { InProcessPubSub } from "./channels/in-process-pubsub";
export { RedisPubSub } from "./channels/redis-pubsub";
export type { RedisPubSubOptions } from "./channels/redis-pubsub";
export { PresenceStore, PRESENCE_STORE_TOKEN } from "./channels/presence-store";
export type { PresenceDeparture, PresenceEntry } from "./channels/presence-store";
export { InProcessPresenceStore } from "./channels/in-process-presence-store";
export { RedisPresenceStore } from "./channels/redis-presence-store";
export type { RedisPresenceStoreOptions } from "./channels/redis-presence-store";

export { rateLimit } from "./middleware/rate-limit";
export type { RateLimitExceeded, RateLimitKey, RateLimitOptions } from "./middleware/rate-limit";
export { RateLimitStore, RATE_LIMIT_STORE_TOKEN } from "./middleware/rate-limit-store";
export type { RateLimitHit } from "./middleware/rate-limit-store";
export { MemoryRateLimitStore } from "./middleware/memory-rate-limit-store";
export { RedisRateLimitStore } from "./middleware/redis-rate-limit-store";
export type { RedisRateLimitStoreOptions } from "./middleware/redis-rate-limit-store";

export { WS_CLOSE_CODE } from "./transports/websocket/close-codes";

export type { StatusResponse } from "./core/status-action";

export { inject, injectable, singleton } from "tsyringe";
