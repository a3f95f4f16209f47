import { join } from "node:path";
import { DataSource } from "typeorm";
import { z } from "zod";
import { readConcurrentCallLimits } from "../core/concurrent-calls";
import { readSettings, type HeraldConfig } from "../core/config";

/** Where the data lives: a PostgreSQL server, or the embedded PGlite in a directory (or `memory://`). */
export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

const pgliteSettings = z.object({
  PGLITE_DATA_DIR: z.string().min(1).optional(),
});

const IN_MEMORY = "memory://";

/**
 * PostgreSQL when DATABASE_URL is set; otherwise PGlite in PGLITE_DATA_DIR, by default under
 * `<app>/.data/pglite`, or in memory under NODE_ENV=test: each test file gets a fresh database
 * and leaves nothing behind, even while `herald dev` holds the app's own.
 */
export function databaseTarget(config: HeraldConfig, appRoot: string): DatabaseTarget {
  if (config.databaseUrl) return { kind: "postgres", url: config.databaseUrl };
  const { PGLITE_DATA_DIR } = readSettings(pgliteSettings, config);
  const byDefault = config.env === "test" ? IN_MEMORY : join(appRoot, ".data", "pglite");
  return { kind: "pglite", dataDir: PGLITE_DATA_DIR ?? byDefault };
}


const poolSettings = z.object({
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).optional(),
});

/** Connections the pool holds beyond the calls one address may have in flight: room for the other callers. */
const POOL_HEADROOM = 8;

/** pg's own default, for when no bound keeps one address from taking every connection anyway. */
const PG_DEFAULT_POOL_SIZE = 10;

/**
 * The PostgreSQL pool's size: DATABASE_POOL_SIZE, else the bound on one address's calls in flight
 * (MAX_CONCURRENT_CALLS_PER_ADDRESS) plus headroom, so that one address never holds every
 * connection while other callers wait for one.
 */
export function databasePoolSize(config: HeraldConfig): number {
  const { DATABASE_POOL_SIZE } = readSettings(poolSettings, config);
  if (DATABASE_POOL_SIZE !== undefined) return DATABASE_POOL_SIZE;
  const { perAddress } = readConcurrentCallLimits(config);
  return perAddress > 0 ? perAddress + POOL_HEADROOM : PG_DEFAULT_POOL_SIZE;
}

export function isInMemory(target: DatabaseTarget): boolean {
  return target.kind === "pglite" && target.dataDir.startsWith(IN_MEMORY);
}

/**
 * The app's DataSource, not yet connected, with a pool of `poolSize` connections on PostgreSQL.
 * Schema changes go through migrations, never `synchronize`.
 */
export function createDataSource(target: DatabaseTarget, poolSize: number, schema: AppSchema): DataSource {
  const common = { type: "postgres", entities: schema.entities, migrations: schema.migrations, synchronize: false } as const;
  // A server that hangs rather than refusing would otherwise hold each call until its action timeout.
  if (target.kind === "postgres") return new DataSource({ ...common, url: target.url, connectTimeoutMS: 5000, poolSize });
  return new DataSource({ ...common, driver: pgliteDriver(target.dataDir) });
}

/**
 * typeorm-pglite keeps one PGlite per process, configured by the last PGliteDriver built; build
 * it again right before connecting so that this DataSource opens its own directory.
 */
export function pgliteDriver(dataDir: string) {
  // Required here: PGlite loads its WebAssembly only for an app on the embedded database.
  const { PGliteDriver } = require("typeorm-pglite") as typeof import("typeorm-pglite");
  return new PGliteDriver({ dataDir }).driver;
}

/** The app's entity classes and migrations, as the DataSource takes them. */
export interface AppSchema {
  entities: Function[];
  migrations: Function[];
}
