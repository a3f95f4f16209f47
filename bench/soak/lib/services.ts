import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import { Client } from "pg";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** The soak talks to services on this machine only. */
export function assertLoopback(url: string, variable: string): void {
  const host = new URL(url).hostname;
  if (!LOOPBACK.has(host)) throw new Error(`${variable} must point at this machine (loopback) for the soak, not ${host}`);
}

/** A PostgreSQL schema of this soak run, with its tables; `url` connects into it. */
export async function createSchema(databaseUrl: string): Promise<{ schema: string; url: string; drop(): Promise<void> }> {
  const schema = `soak_${randomBytes(4).toString("hex")}`;
  await admin(databaseUrl, `
    CREATE SCHEMA "${schema}";
    CREATE TABLE "${schema}".soak_notes (id serial PRIMARY KEY, body text NOT NULL);
    CREATE TABLE "${schema}".soak_job_runs (tag text PRIMARY KEY, at timestamptz NOT NULL DEFAULT now());`);
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    schema,
    url: url.toString(),
    drop: () => admin(databaseUrl, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`),
  };
}

/** How many of these job tags the jobs recorded. */
export async function talliedJobs(url: string, tags: readonly string[]): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>("SELECT count(*) FROM soak_job_runs WHERE tag = ANY($1)", [tags]);
    return Number(rows[0]!.count);
  } finally {
    await client.end();
  }
}

async function admin(databaseUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Fails unless Redis answers a PING. */
export async function checkRedis(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key of the soak's app NAME (SCAN, never KEYS or FLUSH*). */
export async function deleteKeys(redisUrl: string, name: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    for await (const keys of redis.scanStream({ match: `${name}:*`, count: 500 })) {
      if ((keys as string[]).length) await redis.del(...(keys as string[]));
    }
  } finally {
    redis.disconnect();
  }
}

/** The machine's Redis and a PostgreSQL schema of the run's own, both refused unless on loopback. */
export async function loopbackServices(): Promise<{ redisUrl: string; database: Awaited<ReturnType<typeof createSchema>> }> {
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  assertLoopback(redisUrl, "REDIS_URL");
  assertLoopback(databaseUrl, "DATABASE_URL");
  await checkRedis(redisUrl);
  return { redisUrl, database: await createSchema(databaseUrl) };
}
