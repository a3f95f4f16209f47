import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { HOOK_TIMEOUT } from "herald/testing";

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function asAdmin(sql: string): Promise<void> {
  const client = new Client({ connectionString: POSTGRES_URL });
  try {
    await client.connect();
  } catch (error) {
    // Never skipped: these tests have no meaning without PostgreSQL, in CI or out of it.
    throw new Error(`This test file needs PostgreSQL at ${POSTGRES_URL}: ${(error as Error).message}`);
  }
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A PostgreSQL schema of this test file alone, created before its tests and dropped after, and a
 * URL builder whose connections use it (through any host and port, a proxy's for one).
 */
export function usePostgresSchema(label: string): { schema: string; urlVia(port: number): string } {
  const schema = `reliability_${label}_${randomBytes(4).toString("hex")}`.toLowerCase();
  beforeAll(() => asAdmin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; CREATE SCHEMA "${schema}"`), HOOK_TIMEOUT);
  afterAll(() => asAdmin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`), HOOK_TIMEOUT);
  return {
    schema,
    urlVia(port: number): string {
      const url = new URL(POSTGRES_URL);
      url.port = String(port);
      url.searchParams.set("options", `-c search_path=${schema}`);
      return url.toString();
    },
  };
}
