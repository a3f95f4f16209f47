import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ErrorType, TypedError } from "./errors";
import type { ActionMiddleware } from "./middleware";

/** Where an application keeps its parts, relative to its root; written in `herald.config.ts`. */
export interface AppConfig {
  actions?: string;
  initializers?: string;
  middleware?: string;
  channels?: string;
  public?: string;
  /**
   * Where `herald generate service` writes injectable services; default "services". Not loaded at
   * boot, as the four folders above are: the container makes a service when a constructor asks for it.
   */
  services?: string;
  /** Where generated tests go; default "test". */
  tests?: string;
  /** Plugin generators and other extensions read by the CLI. */
  plugins?: readonly unknown[];
  /** Turns on the built-in OAuth 2.1 authorization server (docs/mcp.md, The built-in authorization server). */
  oauth?: OAuthAppConfig;
  /**
   * Turns on the built-in database (docs/database.md): TypeORM on PostgreSQL when DATABASE_URL is
   * set, else the embedded PGlite. `true` keeps entities in "entities" and migrations in "migrations".
   */
  database?: boolean | DatabaseAppConfig;
  /**
   * Turns on the tasks dashboard (docs/tasks.md, Dashboard): its actions and its page at
   * TASKS_DASHBOARD_PATH. `true` opens it outside production to callers on this machine only;
   * `{ adminCheck }` runs that middleware before every dashboard action, in every environment.
   */
  tasksDashboard?: boolean | TasksDashboardAppConfig;
}

/** How the tasks dashboard admits its callers. */
export interface TasksDashboardAppConfig {
  /**
   * The app's middleware that admits administrators and refuses everyone else (by throwing in
   * `runBefore`); the page sends the header its `security` names. Without it the dashboard is
   * off in production.
   */
  adminCheck?: new (...args: any[]) => ActionMiddleware;
}

/** Where the built-in database finds the app's entity classes and migrations, relative to its root. */
export interface DatabaseAppConfig {
  entities?: string;
  migrations?: string;
}

/** The built-in authorization server: how an app that owns its users signs them in for MCP clients. */
export interface OAuthAppConfig {
  /** The action that signs a user in by populating the connection's session (`session:create`); its inputs make the sign-in page. */
  signIn: string;
  /**
   * Reads the signed-in user's id from the sign-in action's result: clients see it as `sub`.
   * By default the result's `user.id`, else its `id`.
   */
  subject?: (result: unknown) => string | number | undefined;
}

export interface ResolvedAppConfig {
  root: string;
  actions: string;
  initializers: string;
  middleware: string;
  channels: string;
  public: string;
  services: string;
  tests: string;
  plugins: readonly unknown[];
  oauth?: OAuthAppConfig;
  /** The built-in database's folders, when the app turned it on. */
  database?: { entities: string; migrations: string };
  /** The tasks dashboard, when the app turned it on (`true` is `{}`). */
  tasksDashboard?: TasksDashboardAppConfig;
}

export const APP_CONFIG_FILES = ["herald.config.ts", "herald.config.js"];

export function defineConfig(config: AppConfig): AppConfig {
  return config;
}

export function loadAppConfig(appDir: string): ResolvedAppConfig {
  const root = resolve(appDir);
  const file = APP_CONFIG_FILES.map((name) => join(root, name)).find((candidate) => existsSync(candidate));
  let config: AppConfig = {};
  if (file) {
    try {
      const loaded = require(file) as { default?: AppConfig } & AppConfig;
      config = loaded.default ?? loaded;
    } catch (cause) {
      throw new TypedError({
        message: `Could not load ${file}: ${(cause as Error).message}`,
        type: ErrorType.CONFIG_ERROR,
        cause,
      });
    }
  }
  return {
    root,
    actions: join(root, config.actions ?? "actions"),
    initializers: join(root, config.initializers ?? "initializers"),
    middleware: join(root, config.middleware ?? "middleware"),
    channels: join(root, config.channels ?? "channels"),
    public: join(root, config.public ?? "public"),
    services: join(root, config.services ?? "services"),
    tests: join(root, config.tests ?? "test"),
    plugins: config.plugins ?? [],
    ...(config.oauth ? { oauth: config.oauth } : {}),
    ...(config.database ? { database: databaseFolders(root, config.database) } : {}),
    ...(config.tasksDashboard ? { tasksDashboard: config.tasksDashboard === true ? {} : config.tasksDashboard } : {}),
  };
}

function databaseFolders(root: string, database: true | DatabaseAppConfig): { entities: string; migrations: string } {
  const folders = database === true ? {} : database;
  return { entities: join(root, folders.entities ?? "entities"), migrations: join(root, folders.migrations ?? "migrations") };
}

/**
 * Finds the application for a working directory: a folder holding a herald config file, or the
 * folder named by `"herald": { "app": "…" }` in the nearest package.json.
 */
export function findAppDir(startDir: string = process.cwd()): string | undefined {
  for (let dir = resolve(startDir); ; dir = dirname(dir)) {
    if (APP_CONFIG_FILES.some((name) => existsSync(join(dir, name)))) return dir;
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const pointer = (JSON.parse(readFileSync(manifest, "utf8")) as { herald?: { app?: string } }).herald?.app;
      if (pointer) return resolve(dir, pointer);
    }
    if (dirname(dir) === dir) return undefined;
  }
}
