import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const root = join(__dirname, "../..");

function node(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { cwd: root }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout))),
  );
}

/**
 * The public surface, name by name (docs/api.md explains each one). Adding or removing a public
 * name is a change to these lists, and to docs/api.md.
 */
const surface = {
  herald: {
    values: [
      // constants and enumerations
      "HTTP_METHOD", "CHANNEL_NAME_PATTERN", "MCP_APP_MIME_TYPE", "MCP_RESPONSE_FORMAT", "LogFormat", "LogLevel",
      "ExitCode", "CONNECTION_TYPE", "RUN_MODE", "LogParams",
      // errors
      "ErrorType", "ErrorStatusCodes", "TypedError", "isTypedError", "errorBody", "toTypedError",
      // actions
      "Action", "Web", "Task", "Mcp", "ActionRegistry", "ACTION_NAME_PATTERN", "Dispatcher",
      // middleware, connections, dependency injection
      "rateLimit", "Connection", "InputRequiredError", "isInputRequired", "McpContent", "mcpContent", "Service", "globLoader", "rootContainer", "inject", "injectable", "singleton",
      // server, configuration, lifecycle
      "createHerald", "startHerald", "HeraldServer", "defineConfig", "HeraldConfig", "loadConfig", "readSettings",
      "readConcurrentCallLimits", "Logger", "HealthRegistry", "WS_CLOSE_CODE", "keepAcrossReload", "reclaimKept",
      // schemas and helpers, database
      "safeCompare", "secret", "isSecret", "zBooleanFromString", "paginationInputs", "paginationOutputs", "paginate", "zodFromEntity",
      "internal", "zTimestamp", "zIdOrModel", "registerDataSource", "dataSourceFor", "Migrator", "MIGRATOR",
      "isConnectionFailure", "isUniqueViolation",
      // sessions
      "SessionStore", "SESSION_STORE_TOKEN", "MemorySessionStore", "Session", "SessionManager", "sessionCookieSecurity",
      // idempotency keys
      "IdempotencyStore", "IDEMPOTENCY_STORE_TOKEN",
      // the built-in authorization server
      "LOCAL_AUTHORIZATION_SERVER",
      // channels
      "Channel", "ChannelPublisher", "ChannelPresence", "PubSubDriver", "PUBSUB_DRIVER_TOKEN", "InProcessPubSub",
      "PresenceStore", "PRESENCE_STORE_TOKEN", "InProcessPresenceStore",
      // tasks, OpenAPI, command line
      "TaskService", "jobCallerOf", "generateOpenApiSchemas", "computeActionsHash", "writeSchemasCache", "loadCachedSchemas",
      "buildOpenApiDocument", "errorBodySchema", "buildProgram", "getValidTypes",
    ],
    types: [
      // errors
      "ErrorIssue", "TypedErrorOptions", "ErrorBody", "ErrorDeclarations", "ActionErrors", "HeraldError",
      // actions
      "ActionOptions", "ActionInputs", "ActionOutputs", "ActionParams", "ActionResponse", "ActionTransport", "McpActionConfig",
      "MiddlewareReference", "TaskConfig", "WebConfig", "RegisteredAction", "ActionResult", "Answer", "DispatchOptions", "ResponseCodec",
      // middleware, connections, dependency injection
      "ActionMiddleware", "ActionMiddlewareResponse", "AfterContext", "GlobalMiddleware", "GlobalMiddlewareClass", "MiddlewareSecurity",
      "RateLimitKey", "RateLimitMiddleware", "RateLimitOptions", "CallerLogLevel", "ConnectionAuth", "ConnectionInit", "ConnectionSession", "LogReporter", "McpContentBlock", "ProgressReporter", "ProviderOverride",
      "CallerInput", "AnswerTo", "Answers", "CallerRoot", "FormAnswer", "FormQuestion", "Question", "QuestionKind", "Questions", "RawAnswer",
      "RootsAnswer", "RootsQuestion", "SampleAnswer", "SampleQuestion", "SamplingContent", "SamplingMessage",
      // server, configuration, lifecycle
      "ServerOptions", "AppConfig", "DatabaseAppConfig", "OAuthAppConfig", "TasksDashboardAppConfig", "IssuedAccessToken", "LocalAuthorizationServer", "ProtectedResource", "ConcurrentCallLimits", "Initializer", "HealthCheck", "HealthCheckOptions",
      "HealthReport", "HealthState", "ServiceHealth", "ServiceLoad", "HttpMount",
      // schemas and helpers, database
      "CountResult", "PaginateOptions", "PaginatedResult", "PaginationOptions", "PaginationParams", "ColumnKeys",
      "ModelSchema", "ZodFromEntityOptions", "IdOrModelOptions", "MigrationStatus",
      // sessions
      "SessionData", "MemorySessionStoreOptions", "SessionIdChange", "SessionCookieChange",
      // channels
      "ChannelMiddleware", "PubSubHandler", "PresenceDeparture", "PresenceEntry",
      // tasks, OpenAPI, command line
      "EnqueueOptions", "FanOutOptions", "Backoff", "FanOutProgress", "JobError", "JobInfo", "JobStatus", "QueueStats",
      "JobWatcher", "WatchedJob", "JobWatchEvent", "FanOutCounts", "JobCaller",
      "TaskJobState", "JSONSchema", "OpenApiDocumentOptions", "ActionSource", "PluginGenerator",
    ],
  },
  "herald/toolchain": {
    values: [
      "runCli", "buildProgram", "getValidTypes",
      "generateOpenApiSchemas", "computeActionsHash", "writeSchemasCache", "loadCachedSchemas", "openApiCachePath", "OPENAPI_CACHE_FILE",
    ],
    types: [
      "ProgramOptions", "CommandOutput", "PluginGenerator", "GeneratedFile", "GeneratorContext", "GeneratorOption", "GeneratedNames",
      "NameShape", "JSONSchema",
    ],
  },
  "herald/testing": {
    values: ["useTestServer", "startTestServer", "testServer", "serverUrl", "HOOK_TIMEOUT", "waitFor"],
    types: ["TestServerOptions", "WaitForOptions"],
  },
  "herald/client": {
    values: ["createClient", "HeraldClientError", "SocketClosedError"],
    types: [
      "CallOptions", "ClientOptions", "HeraldClient", "ClientErrorBody", "ClientErrorIssue", "TypedClientError",
      "ClientActionShape", "ClientActions", "ClientChannelShape", "ClientChannels", "ClientErrorShape", "HttpActionName",
      "SocketActionName", "StreamingActionName",
      "HeraldSocket", "SocketOptions", "ReconnectOptions", "SocketCallOptions", "SocketCallResult", "SocketEvents",
    ],
  },
};

const sorted = (names: readonly string[]) => [...names].sort();

/** Every name a built declaration file exports; the entry points re-export names one by one, never `export *`. */
function declaredNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) continue;
    if (!ts.isExportDeclaration(statement) || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) {
      throw new Error(`${file}: only named re-exports belong in an entry point, found: ${statement.getText(source)}`);
    }
    names.push(...statement.exportClause.elements.map((element) => element.name.text));
  }
  return names;
}

test("after the build, require('herald') and require('herald/testing') resolve from the repository root", async () => {
  const out = await node([
    "-e",
    "const h = require('herald'); const t = require('herald/testing'); console.log(JSON.stringify([typeof h.HeraldServer, typeof h.TypedError, h.HTTP_METHOD.GET, typeof t.useTestServer, t.HOOK_TIMEOUT]))",
  ]);
  expect(JSON.parse(out)).toEqual(["function", "function", "GET", "function", 60000]);
});

test("import('herald') works from an ES module too", async () => {
  const out = await node([
    "--input-type=module",
    "-e",
    "const h = await import('herald'); const t = await import('herald/testing'); console.log(JSON.stringify([typeof h.safeCompare, typeof t.waitFor]))",
  ]);
  expect(JSON.parse(out)).toEqual(["function", "function"]);
});

test("the package declares the herald executable and its entry points", () => {
  const manifest = require("../../package.json");
  expect(manifest.name).toBe("herald");
  expect(manifest.bin).toEqual({ herald: "dist/cli-entry.js" });
  expect(Object.keys(manifest.exports)).toEqual(expect.arrayContaining([".", "./testing", "./client", "./toolchain"]));
});

test.each(Object.entries(surface))("the values %s exports at run time are exactly the listed ones", async (entry, { values }) => {
  const out = await node(["-e", `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(entry)}))))`]);
  expect(sorted(JSON.parse(out))).toEqual(sorted(values));
});

test.each(Object.entries(surface))("the names %s declares are exactly the listed values and types", (entry, { values, types }) => {
  const manifest = require("../../package.json");
  const declarations = join(root, manifest.exports[entry.replace(/^herald/, ".")].types);
  expect(sorted(declaredNames(declarations))).toEqual(sorted([...values, ...types]));
});

test("the parts Herald wires itself stay out of the public surface", async () => {
  const internals = [
    "HttpInitializer",
    "WebSocketInitializer",
    "SessionsInitializer",
    "ChannelBroker",
    "ChannelSubscriptions",
    "readHttpSettings",
    "encodeSessionData",
    "StatusAction",
    "flattenHeaders",
    "RedisSessionStore",
    "RedisPubSub",
    "RedisPresenceStore",
    "RedisRateLimitStore",
    "MemoryRateLimitStore",
    "RATE_LIMIT_STORE_TOKEN",
    "RedisIdempotencyStore",
    "MemoryIdempotencyStore",
    "IdempotentCalls",
    "signSessionId",
    "unsignSessionId",
  ];
  const out = await node(["-e", `const h = require('herald'); console.log(JSON.stringify(${JSON.stringify(internals)}.filter((name) => name in h)))`]);
  expect(JSON.parse(out)).toEqual([]);
});
