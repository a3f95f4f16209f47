import { join } from "node:path";
import { Client } from "pg";
import type { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer } from "herald/testing";
import { POSTGRES_URL, usePostgresSchema } from "./postgres-schema";

export interface SampleAppOnPostgres {
  /** The schema of this test file alone that the app's tables live in. */
  readonly schema: string;
  readonly server: HeraldServer;
  /** A client of the test's own, to take the locks that the app's queries then wait on. */
  readonly lockHolder: Client;
  /** How many queries wait for a lock in `pg_locks` rows matching `where`: the pooled connections they hold. */
  waiting(where: string, params: unknown[]): Promise<number>;
}

/**
 * The sample app served on PostgreSQL, in a schema of this test file alone, without Redis and
 * with its logs quiet; `env` adds to that or overrides it. The server and the lock holder start
 * before the file's tests and end after them.
 */
export function useSampleAppOnPostgres(label: string, env: Record<string, string> = {}): SampleAppOnPostgres {
  const database = usePostgresSchema(label);
  let server: HeraldServer | undefined;
  let lockHolder: Client | undefined;

  beforeAll(async () => {
    server = await startTestServer({
      appDir: join(__dirname, "../../../sample-app"),
      env: { DATABASE_URL: database.urlVia(Number(new URL(POSTGRES_URL).port || 5432)), REDIS_URL: "", LOG_LEVEL: "fatal", ...env },
    });
    lockHolder = new Client({ connectionString: POSTGRES_URL });
    await lockHolder.connect();
  }, HOOK_TIMEOUT);

  afterAll(async () => {
    await lockHolder?.end();
    await server?.stop();
  }, HOOK_TIMEOUT);

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("The sample app on PostgreSQL is only there once beforeAll has run");
    return value;
  };
  return {
    schema: database.schema,
    get server() {
      return started(server);
    },
    get lockHolder() {
      return started(lockHolder);
    },
    async waiting(where, params) {
      const { rows } = await started(lockHolder).query<{ count: string }>(`SELECT count(*) FROM pg_locks WHERE ${where} AND NOT granted`, params);
      return Number(rows[0]!.count);
    },
  };
}
