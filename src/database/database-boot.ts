import { DataSource } from "typeorm";
import { z } from "zod";
import { readConcurrentCallLimits } from "../core/concurrent-calls";
import { readSettings } from "../core/config";
import { keepAcrossReload, reclaimKept } from "../core/kept-across-reloads";
import { MIGRATOR } from "../core/ports/migrator";
import { HeraldServer } from "../core/server";
import { registerDataSource } from "../schema/data-sources";
import { loadAppSchema, type DatabaseFolders } from "./app-schema";
import { isConnectionFailure } from "./database-errors";
import { createDataSource, databasePoolSize, databaseTarget, isInMemory, pgliteDriver, type DatabaseTarget } from "./data-source";
import { lockDirectory } from "./directory-lock";
import { migrate } from "./migrate";
import { isPoolBusy, isPoolSaturated, probeOutsidePool } from "./pool-load";
import { TypeOrmMigrator } from "./typeorm-migrator";

/** `boot` applies pending migrations when the app starts; `manual` leaves it to `herald migrate run`. */
const migrationSettings = z.object({ DATABASE_MIGRATIONS: z.enum(["boot", "manual"]).default("boot") });

/**
 * The built-in database of an app whose config has `database`: a TypeORM DataSource on PostgreSQL
 * (DATABASE_URL) or the embedded PGlite, over the entities and migrations of the app's folders.
 * It connects, runs pending migrations and reports its health. The DataSource is registered in
 * the server's container at `register`, before the actions are built, so an action can ask for it
 * in its constructor; it connects in `initialize`, before the app's initializers. Loaded by the
 * `database` initializer only for such an app (see database-initializer.ts).
 */
export class DatabaseBoot {
  dataSource!: DataSource;
  private target!: DatabaseTarget;
  private readonly cleanups: (() => void | Promise<void>)[] = [];
  private migrateAtBoot = false;
  /** The embedded database this boot opened or took over, while it holds it. */
  private embedded: EmbeddedDatabase | undefined;

  constructor(
    private readonly server: HeraldServer,
    private readonly folders: DatabaseFolders,
  ) {}

  register(): void {
    const { server, folders } = this;
    this.target = databaseTarget(server.config, server.app.root);
    const poolSize = databasePoolSize(server.config);
    this.dataSource = createDataSource(this.target, poolSize, loadAppSchema(folders));
    if (this.target.kind === "postgres") warnIfOneAddressFillsThePool(server, poolSize);
    server.container.register(DataSource, { useValue: this.dataSource });
    server.container.register(MIGRATOR, {
      useValue: new TypeOrmMigrator(this.dataSource, { shared: this.target.kind === "postgres", directory: folders.migrations }),
    });
    this.migrateAtBoot = readSettings(migrationSettings, server.config).DATABASE_MIGRATIONS === "boot";
  }

  async initialize(): Promise<void> {
    try {
      await this.connect();
      if (this.migrateAtBoot) {
        const applied = await migrate(this.dataSource, { shared: this.target.kind === "postgres" });
        if (applied.length) this.server.logger.info({ migrations: applied }, "database migrated");
      }
      this.cleanups.push(registerDataSource(this.dataSource));
      this.server.health.register(
        "database",
        async () => {
          // A saturated pool is load, not an outage: the node stays in its load balancer.
          if (isPoolSaturated(this.dataSource)) {
            await probeOutsidePool(this.dataSource);
            return "busy";
          }
          await this.dataSource.query("SELECT 1");
          return undefined;
        },
        { isOutage: isConnectionFailure, isBusy: (error) => isPoolBusy(this.dataSource, error) },
      );
    } catch (error) {
      // The server stops only the initializers that initialized; release what this one holds.
      await this.stop().catch(() => undefined);
      throw error;
    }
  }

  async stop(): Promise<void> {
    let failure: unknown;
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        failure ??= error;
      }
    }
    const embedded = this.embedded;
    this.embedded = undefined;
    // Under herald dev's reload, the embedded database stays open (and its directory locked) for the changed code.
    if (embedded && !keepAcrossReload(embeddedKey(embedded.dataDir), embedded, closeEmbedded)) {
      await closeEmbedded(embedded).catch((error: unknown) => (failure ??= error));
    }
    if (failure) throw failure;
  }

  private async connect(): Promise<void> {
    if (this.target.kind === "postgres") {
      await this.dataSource.initialize();
      this.cleanups.push(() => this.dataSource.destroy());
      this.server.logger.info({ database: "PostgreSQL" }, "database connected");
      return;
    }
    const { dataDir } = this.target;
    // What the boot before a herald dev reload left open: its database, still locked for this process.
    const kept = reclaimKept<EmbeddedDatabase>(embeddedKey(dataDir));
    const unlock = kept?.unlock ?? (isInMemory(this.target) ? () => undefined : lockDirectory(dataDir));
    // typeorm-pglite's options are per process: point them at this directory again.
    pgliteDriver(dataDir);
    try {
      await this.dataSource.initialize();
    } catch (error) {
      unlock();
      throw error;
    }
    // typeorm-pglite keeps one PGlite per process, which this DataSource's destroy closes; stop closes it last.
    this.embedded = { dataDir, dataSource: this.dataSource, unlock };
    this.server.logger.info({ database: `PGlite in ${dataDir}`, keptAcrossReload: Boolean(kept) }, "database connected");
  }
}

/** An open embedded database: its directory, the DataSource that opened it and the lock on the directory. */
interface EmbeddedDatabase {
  dataDir: string;
  dataSource: DataSource;
  unlock: () => void;
}

function embeddedKey(dataDir: string): string {
  return `herald:pglite:${dataDir}`;
}

async function closeEmbedded(embedded: EmbeddedDatabase): Promise<void> {
  try {
    if (embedded.dataSource.isInitialized) await embedded.dataSource.destroy();
  } finally {
    embedded.unlock();
  }
}

/** A per-address bound at or over the pool's size lets one address hold every connection while the others wait. */
function warnIfOneAddressFillsThePool(server: HeraldServer, poolSize: number): void {
  const { perAddress } = readConcurrentCallLimits(server.config);
  if (perAddress > 0 && perAddress < poolSize) return;
  server.logger.warn(
    { poolSize, MAX_CONCURRENT_CALLS_PER_ADDRESS: perAddress },
    "one address may hold every pooled database connection: keep MAX_CONCURRENT_CALLS_PER_ADDRESS above 0 and below DATABASE_POOL_SIZE",
  );
}
