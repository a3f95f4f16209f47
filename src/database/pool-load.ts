import type { DataSource } from "typeorm";

/** What the app reads of pg's Pool, which TypeORM's postgres driver keeps as `master`. */
interface PgPool {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly options: { max: number } & Record<string, unknown>;
}

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

interface PostgresDriverView {
  master?: unknown;
  /** The `pg` module TypeORM loaded. */
  postgres?: { Client: new (options: Record<string, unknown>) => PgClient };
}

/**
 * pg's message when a query gave up waiting for a pooled connection (after `connectTimeoutMS`);
 * a new connection that times out says "Connection terminated due to connection timeout" instead.
 */
const POOL_WAIT_TIMEOUT = "timeout exceeded when trying to connect";

function poolOf(dataSource: DataSource): PgPool | undefined {
  const pool = (dataSource.driver as unknown as PostgresDriverView).master as Partial<PgPool> | undefined;
  return typeof pool?.totalCount === "number" && typeof pool.options?.max === "number" ? (pool as PgPool) : undefined;
}

/** Every connection of the pool is checked out: a query now waits for one to come back. */
export function isPoolSaturated(dataSource: DataSource): boolean {
  const pool = poolOf(dataSource);
  return pool !== undefined && pool.totalCount >= pool.options.max && pool.idleCount === 0;
}

/**
 * A call that failed because the pool had no connection to spare, not because the database is
 * gone: it waited its turn in vain while every connection was in use.
 */
export function isPoolBusy(dataSource: DataSource, error: unknown): boolean {
  return error instanceof Error && error.message === POOL_WAIT_TIMEOUT && isPoolSaturated(dataSource);
}

/**
 * Whether the database answers, asked on a connection of its own: with the pool saturated a probe
 * through it would only queue behind the busy calls and report the database down.
 */
export async function probeOutsidePool(dataSource: DataSource): Promise<void> {
  const pool = poolOf(dataSource);
  const pg = (dataSource.driver as unknown as PostgresDriverView).postgres;
  if (!pool || !pg) throw new Error("the database driver has no pg pool");
  const client = new pg.Client(pool.options);
  try {
    await client.connect();
    await client.query("SELECT 1");
  } finally {
    await client.end().catch(() => undefined);
  }
}
