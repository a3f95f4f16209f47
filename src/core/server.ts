import "reflect-metadata";
import type { DependencyContainer } from "tsyringe";
import { loadAppConfig, findAppDir, ResolvedAppConfig } from "./app-config";
import { appManifest } from "./app-manifest";
import { type CallerAddress, callerAddressRule } from "./caller-address";
import { HeraldConfig, loadConfig } from "./config";
import { loadEnvFilesIntoProcess, withEnvFiles } from "./env-files";
import { LogLevel, RUN_MODE } from "./constants";
import { applyOverrides, ProviderOverride, rootContainer } from "./container";
import { Connection } from "./connection";
import { readConcurrentCallLimits } from "./concurrent-calls";
import { type ActionRefusal, ActionResult, Dispatcher, DispatchOptions } from "./dispatcher";
import { ResponseCodec } from "./response-codec";
import { ErrorType, TypedError } from "./errors";
import { IDEMPOTENCY_STORE_TOKEN } from "./idempotency-store";
import { IdempotentCalls } from "./idempotent-calls";
import { appliesTo, Initializer, isInitializerLike, orderInitializers } from "./initializer";
import { globLoader, loadExportedClasses, sourceOf } from "./loader";
import { createLogger, Logger, LOGGER_TOKEN } from "./logger";
import { globalMiddlewareClasses, warnUnusedMiddleware } from "./middleware-folder";
import { ActionRegistry } from "./registry";
import { HealthRegistry } from "./health";
import { Metrics } from "./metrics";
import { readMetricsSettings } from "./metrics-settings";
import { isTracing } from "./tracing";
import { readShutdownDelay, waitOutShutdownDelay } from "./shutdown-delay";
import type { EntryPoints } from "./ports/entry-points";
import type { HttpMount } from "./ports/http-mount";
import type { Server as NodeHttpServer } from "node:http";
import type { ActionDefinition } from "./action";

export type InitializerClass = new (...args: any[]) => Initializer;

export interface ServerOptions {
  /** The application root (where herald.config.ts lives); found from the working directory when absent. */
  appDir?: string;
  runMode?: RUN_MODE | `${RUN_MODE}`;
  env?: NodeJS.ProcessEnv;
  /** The container this server resolves everything through; a child of the root one by default. */
  container?: DependencyContainer;
  /** Providers that replace services before boot (a mailer, a clock, a payment client …). */
  overrides?: readonly ProviderOverride[];
  /** Framework actions (such as `status`) registered before the app's own. */
  builtinActions?: readonly (new (...args: any[]) => ActionDefinition)[];
  /** Framework initializers (transports, drivers) that run alongside the app's own. */
  builtins?: readonly InitializerClass[];
  /** Where log lines go: a file descriptor or a stream. */
  logDestination?: number | NodeJS.WritableStream;
  /** Overrides LOG_LEVEL, e.g. "silent" for `herald … -q`. */
  logLevel?: LogLevel | "silent";
}

type ServerState = "new" | "booting" | "booted" | "started" | "stopping" | "stopped";

/** One Herald process: its config, container, registry, dispatcher and initializers. */
export class HeraldServer {
  readonly runMode: RUN_MODE;
  readonly container: DependencyContainer;
  config!: HeraldConfig;
  logger!: Logger;
  app!: ResolvedAppConfig;
  registry!: ActionRegistry;
  dispatcher!: Dispatcher;
  initializers: Initializer[] = [];
  channels: unknown[] = [];
  /** The base URL the web transport really bound to, once it has started. */
  url: string | undefined;
  /** The Node HTTP server of the web transport, for what shares its port (WebSocket upgrades). */
  httpServer: NodeHttpServer | undefined;
  /** Handlers other parts ask the web transport to serve; see HttpMount. */
  readonly httpMounts: HttpMount[] = [];
  /** Where the parts that run serve the reference page, the OpenAPI document, MCP and WebSocket; see EntryPoints. */
  readonly entryPoints: EntryPoints = {};
  readonly health = new HealthRegistry();
  /**
   * What refuses, in this process, the calls of an action it cannot run (see ActionRefusal): a
   * feature adds one from its initializer, and every call asks them before its params are read.
   */
  readonly actionRefusals: ActionRefusal[] = [];
  /** How every answer is encoded and every error shown, in this environment: the dispatcher's, and the transports' own refusals. */
  codec!: ResponseCodec;
  /** This server's meter and `/metrics`; its meter is undefined when metrics are off. */
  metrics!: Metrics;
  /** Who sent a network request, by the one rule every transport with a network peer uses (`HTTP_TRUST_PROXY`). */
  callerAddress!: CallerAddress;
  private state: ServerState = "new";
  private loaded = false;
  /** SHUTDOWN_DELAY: how long `stop` keeps serving, readiness already 503, before it stops anything. */
  private shutdownDelay = 0;
  /** Initializers that initialized, so the ones to stop, in boot order. */
  private readonly active: Initializer[] = [];

  constructor(private readonly options: ServerOptions = {}) {
    this.runMode = (options.runMode ?? RUN_MODE.server) as RUN_MODE;
    this.container = options.container ?? rootContainer.createChildContainer();
  }

  get status(): ServerState {
    return this.state;
  }

  /**
   * Reads config, builds the container and loads the app's classes, without initializing
   * anything: enough to list actions or print help without opening a pool or a port.
   */
  async load(): Promise<this> {
    if (this.loaded) return this;
    this.loaded = true;
    const appDir = this.options.appDir ?? findAppDir();
    // A process of the app's own (no env given) takes its env files into process.env, for the app's code to read too.
    if (appDir && !this.options.env) loadEnvFilesIntoProcess(appDir);
    const env = this.options.env ?? process.env;
    this.config = loadConfig(appDir ? withEnvFiles(appDir, env) : env, appDir ? { name: appManifest(appDir).name } : {});
    this.callerAddress = callerAddressRule(this.config.trustProxy);
    this.codec = new ResponseCodec(this.config.production);
    this.shutdownDelay = readShutdownDelay(this.config);
    const defaultDestination = this.runMode === RUN_MODE.server || this.runMode === RUN_MODE.workers ? 1 : 2;
    this.logger = createLogger({
      level: this.options.logLevel ?? this.config.logLevel,
      format: this.config.logFormat,
      name: this.config.name,
      destination: this.options.logDestination ?? defaultDestination,
      traceIds: isTracing(),
    });
    if (!appDir) {
      throw new TypedError({
        message: "No Herald application found: add herald.config.ts, or point package.json \"herald.app\" at the app folder",
        type: ErrorType.CONFIG_ERROR,
      });
    }
    this.app = loadAppConfig(appDir);
    this.metrics = new Metrics(readMetricsSettings(this.config), { production: this.config.production, runMode: this.runMode, logger: this.logger });

    this.container.register(HeraldServer, { useValue: this });
    this.container.register(HeraldConfig, { useValue: this.config });
    this.container.register(LOGGER_TOKEN, { useValue: this.logger });
    this.registry = new ActionRegistry(this.container);
    this.container.register(ActionRegistry, { useValue: this.registry });
    this.container.register(HealthRegistry, { useValue: this.health });
    applyOverrides(this.container, this.options.overrides ?? []);

    // Herald's initializers register before the app's are built, whose constructors may take what they register.
    const builtins = (this.options.builtins ?? [])
      .map((initializerClass) => this.container.resolve(initializerClass))
      .filter((initializer) => appliesTo(initializer, this.runMode));
    for (const initializer of builtins) initializer.register?.();
    const appInitializers = await globLoader<Initializer>(this.app.initializers, this.container);
    for (const candidate of appInitializers) {
      if (!isInitializerLike(candidate)) {
        throw new TypedError({
          message: `${sourceOf(candidate)} exports a class that is not an initializer: it needs a "name" and register/initialize/start/stop`,
          type: ErrorType.SERVER_INITIALIZATION,
        });
      }
    }
    const ownInitializers = appInitializers.filter((initializer) => appliesTo(initializer, this.runMode));
    this.initializers = orderInitializers(builtins, ownInitializers);
    const own = new Set<Initializer>(ownInitializers);
    for (const initializer of this.initializers) if (own.has(initializer)) initializer.register?.();

    // Built after the initializers, which register the services (a DataSource, a store) that
    // middleware and actions take in their constructors. Only what runs is built: the global
    // classes here, the ones actions list as the registry adds them.
    const middlewareFolder = loadExportedClasses(this.app.middleware);
    this.dispatcher = new Dispatcher(this.registry, {
      logger: this.logger,
      actionTimeout: this.config.actionTimeout,
      paramsBounds: this.config.paramsBounds,
      production: this.config.production,
      codec: this.codec,
      logParams: this.config.logParams,
      globalMiddleware: globalMiddlewareClasses(middlewareFolder).map((type) => this.registry.middlewareOf(type)),
      failureBehind: (error) => this.health.failureBehind(error),
      concurrentCalls: readConcurrentCallLimits(this.config),
      checkOutputs: this.config.checkOutputs,
      refusals: this.actionRefusals,
      ...(this.metrics.meter ? { meter: this.metrics.meter } : {}),
      ...(this.container.isRegistered(IDEMPOTENCY_STORE_TOKEN, true)
        ? { idempotency: new IdempotentCalls(this.container.resolve(IDEMPOTENCY_STORE_TOKEN), this.logger) }
        : {}),
    });
    this.container.register(Dispatcher, { useValue: this.dispatcher });

    for (const actionClass of this.options.builtinActions ?? []) {
      this.registry.add(this.container.resolve(actionClass), "herald (built-in)", { builtin: true });
    }
    for (const action of await globLoader<object>(this.app.actions, this.container)) {
      this.registry.add(action as never);
    }
    for (const initializer of builtins) initializer.registerActions?.();
    this.channels = await globLoader(this.app.channels, this.container);
    warnUnusedMiddleware(middlewareFolder, this.registry, this.channels, this.logger);

    return this;
  }

  async boot(): Promise<this> {
    if (this.state !== "new") return this;
    this.state = "booting";
    try {
      await this.load();
    } catch (error) {
      this.state = "stopped";
      throw error;
    }
    try {
      for (const initializer of this.initializers) {
        await this.step(initializer, "initialize", ErrorType.SERVER_INITIALIZATION);
        this.active.push(initializer);
      }
    } catch (error) {
      await this.unwind();
      throw error;
    }
    this.state = "booted";
    return this;
  }

  async start(): Promise<this> {
    if (this.state === "new") await this.boot();
    if (this.state !== "booted") return this;
    try {
      for (const initializer of this.initializers) {
        await this.step(initializer, "start", ErrorType.SERVER_START);
      }
    } catch (error) {
      await this.unwind();
      throw error;
    }
    this.state = "started";
    this.logger.info({ runMode: this.runMode, actions: this.registry.list().length, url: this.url }, "server started");
    return this;
  }

  /**
   * Stops every initializer in reverse order; one that fails is logged and the rest still stop.
   * From its first moment the server is no longer ready (`/readyz` 503); a started one keeps
   * serving for SHUTDOWN_DELAY before anything stops.
   */
  async stop(): Promise<void> {
    if (this.state === "new" || this.state === "stopping" || this.state === "stopped") return;
    const wasStarted = this.state === "started";
    this.state = "stopping";
    if (wasStarted) await waitOutShutdownDelay(this.shutdownDelay);
    const failures = await this.stopActive();
    await this.stopMetrics(failures);
    this.state = "stopped";
    this.logger.info({ runMode: this.runMode }, "server stopped");
    if (failures.length) {
      throw new TypedError({
        message: `${failures.length} initializer(s) failed to stop`,
        type: ErrorType.SERVER_STOP,
        cause: failures[0],
      });
    }
  }

  /** Runs an action through the one pipeline, as any transport does. */
  runAction(actionName: string, params: unknown, connection: Connection, options?: DispatchOptions): Promise<ActionResult> {
    return this.dispatcher.run(actionName, params, connection, options);
  }

  private async stopActive(): Promise<unknown[]> {
    const failures: unknown[] = [];
    for (const initializer of this.active.splice(0).reverse()) {
      try {
        await initializer.stop?.();
      } catch (error) {
        failures.push(error);
        this.logger.error({ initializer: initializer.name, err: error }, "initializer failed to stop");
      }
    }
    return failures;
  }

  /** Last, once nothing records any more: the final OTLP export goes out. */
  private async stopMetrics(failures: unknown[]): Promise<void> {
    try {
      await this.metrics?.shutdown();
    } catch (error) {
      failures.push(error);
      this.logger.error({ err: error }, "metrics failed to stop");
    }
  }

  /** After a failed boot or start, releases what the initializers that did succeed hold. */
  private async unwind(): Promise<void> {
    await this.stopMetrics(await this.stopActive());
    this.state = "stopped";
  }

  private async step(initializer: Initializer, phase: "initialize" | "start", type: ErrorType): Promise<void> {
    try {
      await initializer[phase]?.();
    } catch (cause) {
      if (cause instanceof TypedError && (cause.type === ErrorType.CONFIG_ERROR || cause.type === type)) throw cause;
      throw new TypedError({
        message: `Initializer "${initializer.name}" failed to ${phase}: ${(cause as Error)?.message ?? cause}`,
        type,
        cause,
      });
    }
  }
}
