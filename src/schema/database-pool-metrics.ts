import { injectable } from "tsyringe";
import type { DataSource } from "typeorm";
import type { Meter } from "@opentelemetry/api";
import { RUN_MODE } from "../core/constants";
import { APP_INITIALIZERS, type Initializer } from "../core/initializer";
import { HeraldServer } from "../core/server";

/** What is read of pg's Pool, which TypeORM's postgres driver keeps as `master`. */
interface PgPool {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max: number };
}

function poolOf(dataSource: DataSource): PgPool | undefined {
  const pool = (dataSource.driver as unknown as { master?: Partial<PgPool> }).master;
  return typeof pool?.totalCount === "number" && typeof pool.idleCount === "number" && typeof pool.waitingCount === "number"
    ? (pool as PgPool)
    : undefined;
}

/** Observes the pool's connections by state, its bound and the queries waiting for a connection. */
function observePool(meter: Meter, dataSource: DataSource): void {
  // Required here: the conventions' incubating names are loaded only with metrics on.
  const conventions = require("@opentelemetry/semantic-conventions/incubating") as typeof import("@opentelemetry/semantic-conventions/incubating");
  const pool = { [conventions.ATTR_DB_CLIENT_CONNECTION_POOL_NAME]: String(dataSource.driver.database ?? "default") };
  const idle = { ...pool, [conventions.ATTR_DB_CLIENT_CONNECTION_STATE]: conventions.DB_CLIENT_CONNECTION_STATE_VALUE_IDLE };
  const used = { ...pool, [conventions.ATTR_DB_CLIENT_CONNECTION_STATE]: conventions.DB_CLIENT_CONNECTION_STATE_VALUE_USED };
  const count = meter.createObservableUpDownCounter(conventions.METRIC_DB_CLIENT_CONNECTION_COUNT, { unit: "{connection}", description: "Connections of the database pool, by state" });
  const max = meter.createObservableUpDownCounter(conventions.METRIC_DB_CLIENT_CONNECTION_MAX, { unit: "{connection}", description: "The most connections the pool opens" });
  const pending = meter.createObservableUpDownCounter(conventions.METRIC_DB_CLIENT_CONNECTION_PENDING_REQUESTS, {
    unit: "{request}",
    description: "Queries waiting for a connection of the pool",
  });
  meter.addBatchObservableCallback(
    (result) => {
      const current = poolOf(dataSource);
      if (!current || !dataSource.isInitialized) return;
      result.observe(count, current.idleCount, idle);
      result.observe(count, current.totalCount - current.idleCount, used);
      result.observe(max, current.options.max, pool);
      result.observe(pending, current.waitingCount, pool);
    },
    [count, max, pending],
  );
}

/**
 * The database pool's use, when the app registers a TypeORM DataSource in the container (as the
 * sample app does) and its driver keeps a pg Pool. Nothing when metrics are off.
 */
@injectable()
export class DatabasePoolMetricsInitializer implements Initializer {
  readonly name = "database-pool-metrics";
  readonly runModes = [RUN_MODE.server, RUN_MODE.workers];
  readonly dependsOn = [APP_INITIALIZERS];

  constructor(private readonly server: HeraldServer) {}

  initialize(): void {
    const { meter } = this.server.metrics;
    if (!meter) return;
    // A DataSource is made only by code that loaded TypeORM; where none did, there is none to observe, and TypeORM stays unloaded.
    const typeorm = require.cache[require.resolve("typeorm")]?.exports as typeof import("typeorm") | undefined;
    if (!typeorm) return;
    const { DataSource } = typeorm;
    const { container } = this.server;
    if (!container.isRegistered(DataSource, true)) return;
    const dataSource = container.resolve(DataSource);
    if (poolOf(dataSource)) observePool(meter, dataSource);
  }
}
