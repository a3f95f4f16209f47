import "reflect-metadata";

// Constants and enumerations
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
export { LogParams } from "./core/log-params";

// Errors
export { ErrorType, ErrorStatusCodes, TypedError, isTypedError } from "./core/errors";
export type { ErrorIssue, TypedErrorOptions } from "./core/errors";
export { errorBody, toTypedError } from "./core/error-body";
export type { ErrorBody } from "./core/error-body";
export type { ErrorDeclarations } from "./core/error-declarations";
export type { ActionErrors, HeraldError } from "./core/action-errors";

// Actions
export { Action, Web, Task, Mcp } from "./core/decorators";
export type { ActionOptions } from "./core/decorators";
export type {
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
export { ActionRegistry, ACTION_NAME_PATTERN } from "./core/registry";
export type { RegisteredAction } from "./core/registry";
export { Dispatcher } from "./core/dispatcher";
export type { ActionResult, Answer, DispatchOptions } from "./core/dispatcher";
export type { ResponseCodec } from "./core/response-codec";
export { IDEMPOTENCY_STORE_TOKEN, IdempotencyStore } from "./core/idempotency-store";

// Middleware
export type { ActionMiddleware, ActionMiddlewareResponse, AfterContext, GlobalMiddleware, GlobalMiddlewareClass, MiddlewareSecurity } from "./core/middleware";
export { rateLimit } from "./middleware/rate-limit";
export type { RateLimitKey, RateLimitMiddleware, RateLimitOptions } from "./middleware/rate-limit";

// Connections
export { Connection } from "./core/connection";
export type { CallerLogLevel, ConnectionAuth, ConnectionInit, ConnectionSession, LogReporter, ProgressReporter } from "./core/connection";
export { InputRequiredError, isInputRequired } from "./core/input-required";
export type { CallerInput } from "./core/caller-input";
export type {
  AnswerTo,
  Answers,
  CallerRoot,
  FormAnswer,
  FormQuestion,
  Question,
  QuestionKind,
  Questions,
  RawAnswer,
  RootsAnswer,
  RootsQuestion,
  SampleAnswer,
  SampleQuestion,
  SamplingContent,
  SamplingMessage,
} from "./core/questions";
export { McpContent, mcpContent } from "./core/ports/mcp-content";
export type { McpContentBlock } from "./core/ports/mcp-content";

// Services and dependency injection
export { Service } from "./core/service";
export { globLoader } from "./core/loader";
export { rootContainer } from "./core/container";
export type { ProviderOverride } from "./core/container";
export { inject, injectable, singleton } from "tsyringe";

// Server, configuration and lifecycle
export { createHerald, startHerald } from "./herald";
export { HeraldServer } from "./core/server";
export type { ServerOptions } from "./core/server";
export { defineConfig } from "./core/app-config";
export type { AppConfig, DatabaseAppConfig, OAuthAppConfig, TasksDashboardAppConfig } from "./core/app-config";
export { LOCAL_AUTHORIZATION_SERVER } from "./core/ports/authorization-server";
export type { IssuedAccessToken, LocalAuthorizationServer, ProtectedResource } from "./core/ports/authorization-server";
export { HeraldConfig, loadConfig, readSettings } from "./core/config";
export { readConcurrentCallLimits } from "./core/concurrent-calls";
export type { ConcurrentCallLimits } from "./core/concurrent-calls";
export type { Initializer } from "./core/initializer";
export { Logger } from "./core/logger";
export { HealthRegistry } from "./core/health";
export type { HealthCheck, HealthCheckOptions, HealthReport, HealthState, ServiceHealth, ServiceLoad } from "./core/health";
export type { HttpMount } from "./core/ports/http-mount";
export { WS_CLOSE_CODE } from "./transports/websocket/close-codes";

// Schemas and helpers
export { safeCompare } from "./core/safe-compare";
export { secret, isSecret } from "./core/secret";
export { zBooleanFromString } from "./schema/boolean-from-string";
export { paginationInputs, paginationOutputs, paginate } from "./schema/pagination";
export type { CountResult, PaginateOptions, PaginatedResult, PaginationOptions, PaginationParams } from "./schema/pagination";

// Database
export { zodFromEntity } from "./schema/zod-from-entity";
export type { ColumnKeys, ModelSchema, ZodFromEntityOptions } from "./schema/zod-from-entity";
export { internal } from "./schema/internal";
export { zTimestamp } from "./schema/column-schema";
export { zIdOrModel } from "./schema/id-or-model";
export type { IdOrModelOptions } from "./schema/id-or-model";
export { registerDataSource, dataSourceFor } from "./schema/data-sources";
export { isConnectionFailure, isUniqueViolation } from "./database/database-errors";
export { Migrator, MIGRATOR } from "./core/ports/migrator";
export { keepAcrossReload, reclaimKept } from "./core/kept-across-reloads";
export type { MigrationStatus } from "./core/ports/migrator";

// Sessions
export { SessionStore, SESSION_STORE_TOKEN } from "./sessions/session-store";
export type { SessionData } from "./sessions/session-store";
export { MemorySessionStore } from "./sessions/memory-store";
export type { MemorySessionStoreOptions } from "./sessions/memory-store";
export { Session } from "./sessions/session";
export type { SessionIdChange } from "./sessions/session";
export { SessionManager } from "./sessions/session-manager";
export type { SessionCookieChange } from "./sessions/session-manager";
export { sessionCookieSecurity } from "./sessions/session-security";

// Channels
export { Channel } from "./channels/channel";
export type { ChannelMiddleware } from "./channels/channel";
export { ChannelPublisher } from "./channels/channel-publisher";
export { ChannelPresence } from "./channels/channel-presence";
export { PubSubDriver, PUBSUB_DRIVER_TOKEN } from "./channels/pubsub-driver";
export type { PubSubHandler } from "./channels/pubsub-driver";
export { InProcessPubSub } from "./channels/in-process-pubsub";
export { PresenceStore, PRESENCE_STORE_TOKEN } from "./channels/presence-store";
export type { PresenceDeparture, PresenceEntry } from "./channels/presence-store";
export { InProcessPresenceStore } from "./channels/in-process-presence-store";

// Background tasks
export { TaskService } from "./transports/tasks/task-service";
export type { EnqueueOptions, FanOutOptions } from "./transports/tasks/task-service";
export type { JobWatcher, WatchedJob } from "./transports/tasks/task-service";
export type { FanOutCounts, JobWatchEvent } from "./transports/tasks/job-events";
export type { Backoff, FanOutProgress, JobError, JobInfo, JobStatus, QueueStats } from "./transports/tasks/driver";
export type { TaskJobState } from "./transports/tasks/job-runner";
export { jobCallerOf } from "./core/job-caller";
export type { JobCaller } from "./core/job-caller";

// OpenAPI
export { generateOpenApiSchemas } from "./contract/json-schema";
export type { JSONSchema } from "./contract/json-schema";
export { computeActionsHash } from "./contract/actions-hash";
export { writeSchemasCache, loadCachedSchemas } from "./contract/schema-cache";
export { buildOpenApiDocument } from "./openapi/document";
export type { OpenApiDocumentOptions } from "./openapi/document";
export type { ActionSource } from "./contract/action-source";
export { errorBodySchema } from "./contract/error-body-schema";

// Command line and generators (the rest of the toolchain's names are on herald/toolchain)
export { buildProgram } from "./cli-program";
export { getValidTypes } from "./toolchain/generate/generators";
export type { PluginGenerator } from "./toolchain/generate/plugin-generator";
