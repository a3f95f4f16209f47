import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { HOOK_TIMEOUT } from "herald/testing";

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function withAdmin(work: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: POSTGRES_URL });
  try {
    await client.connect();
  } catch (error) {
    // Never skipped: a suite that needs PostgreSQL fails when it is missing, in CI and out of it.
    throw new Error(`This test file needs PostgreSQL at ${POSTGRES_URL}: ${(error as Error).message}`);
  }
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** `url` with its connections' search_path set to `schema`, so unqualified tables live there. */
export function urlWithSchema(url: string, schema: string): string {
  const target = new URL(url);
  target.searchParams.set("options", `-c search_path=${schema}`);
  return target.toString();
}

/**
 * Gives the test file a PostgreSQL schema of its own, created empty before its tests and dropped
 * after them, so no file sees another's rows. `url` points connections at that schema.
 */
export function usePostgresSchema(label: string): { schema: string; url: string } {
  const schema = `test_${label.replace(/[^a-z0-9]+/gi, "_")}_${randomBytes(4).toString("hex")}`.toLowerCase();
  beforeAll(
    () => withAdmin((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; CREATE SCHEMA "${schema}"`)),
    HOOK_TIMEOUT,
  );
  afterAll(() => withAdmin((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)), HOOK_TIMEOUT);
  return { schema, url: urlWithSchema(POSTGRES_URL, schema) };
}
