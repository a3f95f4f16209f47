import { DataSource } from "typeorm";
import { join } from "node:path";
import { z } from "zod";
import { HeraldServer, injectable, MIGRATOR, readConcurrentCallLimits, readSettings, registerDataSource, type Initializer } from "herald";
import { TypeOrmMigrator } from "../db/migrator";

/** `boot` applies pending migrations when the app starts; `manual` leaves it to `herald migrate run`. */
const migrationSettings = z.object({ DATABASE_MIGRATIONS: z.enum(["boot", "manual"]).default("boot") });
import { createDataSource, databasePoolSize, databaseTarget, isInMemory, pgliteDriver, type DatabaseTarget } from "../db/data-source";
import { lockDirectory } from "../db/directory-lock";
import { isConnectionFailure } from "../db/errors";
import { isPoolBusy, isPoolSaturated, probeOutsidePool } from "../db/pool-load";
import { migrate } from "../db/migrate";

/**
 * Connects the app's DataSource, runs its pending migrations and reports its health. The
 * DataSource is registered in the server's container when this initializer is built, before the
 * actions are, so an action can ask for it in its constructor; it connects in `initialize`.
 */
@injectable()
export class DatabaseInitializer implements Initializer {
  name = "database";
  priority = 100;
  readonly dataSource: DataSource;
  private readonly target: DatabaseTarget;
  private readonly cleanups: (() => void | Promise<void>)[] = [];
  private readonly migrateAtBoot: boolean;

  constructor(private readonly server: HeraldServer) {
    this.target = databaseTarget(server.config, server.app.root);
    const poolSize = databasePoolSize(server.config);
    this.dataSource = createDataSource(this.target, poolSize);
    if (this.target.kind === "postgres") warnIfOneAddressFillsThePool(server, poolSize);
    server.container.register(DataSource, { useValue: this.dataSource });
    const directory = join(server.app.root, "migrations");
    server.container.register(MIGRATOR, {
      useValue: new TypeOrmMigrator(this.dataSource, { shared: this.target.kind === "postgres", directory }),
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
    if (failure) throw failure;
  }

  private async connect(): Promise<void> {
    if (this.target.kind === "pglite") {
      if (!isInMemory(this.target)) this.cleanups.push(lockDirectory(this.target.dataDir));
      // typeorm-pglite's options are per process: point them at this directory again.
      pgliteDriver(this.target.dataDir);
    }
    await this.dataSource.initialize();
    this.cleanups.push(() => this.dataSource.destroy());
    const where = this.target.kind === "postgres" ? "PostgreSQL" : `PGlite in ${this.target.dataDir}`;
    this.server.logger.info({ database: where }, "database connected");
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
