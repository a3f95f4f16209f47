import { join } from "node:path";
import { DataSource } from "typeorm";
import { PGliteDriver } from "typeorm-pglite";
import { z } from "zod";
import { readSettings, type HeraldConfig } from "herald";
import { ENTITIES } from "../entities";
import { MIGRATIONS } from "../migrations";

/** Where the data lives: a PostgreSQL server, or the embedded PGlite in a directory (or `memory://`). */
export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

const pgliteSettings = z.object({
  PGLITE_DATA_DIR: z.string().min(1).optional(),
});

/** PostgreSQL when DATABASE_URL is set; otherwise PGlite under `<app>/.data/pglite` (PGLITE_DATA_DIR). */
export function databaseTarget(config: HeraldConfig, appRoot: string): DatabaseTarget {
  if (config.databaseUrl) return { kind: "postgres", url: config.databaseUrl };
  const { PGLITE_DATA_DIR } = readSettings(pgliteSettings, config);
  return { kind: "pglite", dataDir: PGLITE_DATA_DIR ?? join(appRoot, ".data", "pglite") };
}

export function isInMemory(target: DatabaseTarget): boolean {
  return target.kind === "pglite" && target.dataDir.startsWith("memory://");
}

/** The app's DataSource, not yet connected. Schema changes go through migrations, never `synchronize`. */
export function createDataSource(target: DatabaseTarget): DataSource {
  const common = { type: "postgres", entities: ENTITIES, migrations: MIGRATIONS, synchronize: false } as const;
  // A server that hangs rather than refusing would otherwise hold each call until its action timeout.
  if (target.kind === "postgres") return new DataSource({ ...common, url: target.url, connectTimeoutMS: 5000 });
  return new DataSource({ ...common, driver: pgliteDriver(target.dataDir) });
}

/**
 * typeorm-pglite keeps one PGlite per process, configured by the last PGliteDriver built; build
 * it again right before connecting so that this DataSource opens its own directory.
 */
export function pgliteDriver(dataDir: string) {
  return new PGliteDriver({ dataDir }).driver;
}
