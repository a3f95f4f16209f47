import type { DataSource } from "typeorm";

/**
 * Runs the pending migrations in one transaction. On a shared PostgreSQL several processes may
 * boot at once, so the run is serialized by an advisory lock; PGlite serves one process only.
 */
export async function migrate(dataSource: DataSource, { shared }: { shared: boolean }): Promise<string[]> {
  if (!shared) return names(await dataSource.runMigrations({ transaction: "all" }));
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    await lockHolder.query("SELECT pg_advisory_lock(hashtext('herald:migrations'))");
    return names(await dataSource.runMigrations({ transaction: "all" }));
  } finally {
    await lockHolder.query("SELECT pg_advisory_unlock(hashtext('herald:migrations'))").catch(() => undefined);
    await lockHolder.release();
  }
}

function names(migrations: { name: string }[]): string[] {
  return migrations.map((migration) => migration.name);
}
