import { join } from "node:path";
import { Client } from "pg";
import { Connection, CONNECTION_TYPE, ErrorType, HeraldServer, readConcurrentCallLimits } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { call } from "./support/http";
import { POSTGRES_URL, usePostgresSchema } from "./support/postgres-schema";

/**
 * One address cannot hold the sample app's whole database pool: with the default bound on one
 * address's calls in flight, that many calls held by the database leave the pool room for another
 * address's call, and the call over the bound is refused at once instead of waiting for a connection.
 */
const sampleApp = join(__dirname, "../../sample-app");
const database = usePostgresSchema("postgres_per_address");

let server: HeraldServer;
let lockHolder: Client;

beforeAll(async () => {
  // The framework's defaults for the bounds and the app's for the pool: nothing set here.
  server = await startTestServer({
    appDir: sampleApp,
    env: { DATABASE_URL: database.urlVia(Number(new URL(POSTGRES_URL).port || 5432)), REDIS_URL: "", LOG_LEVEL: "fatal" },
  });
  lockHolder = new Client({ connectionString: POSTGRES_URL });
  await lockHolder.connect();
}, HOOK_TIMEOUT);

afterAll(async () => {
  await lockHolder?.end();
  await server?.stop();
}, HOOK_TIMEOUT);

/** How many queries wait for the lock on the messages table: the pooled connections the calls hold. */
async function waiting(): Promise<number> {
  const { rows } = await lockHolder.query<{ count: string }>(
    "SELECT count(*) FROM pg_locks WHERE relation = $1::regclass AND NOT granted",
    [`"${database.schema}".messages`],
  );
  return Number(rows[0]!.count);
}

test("one address's calls in flight, held by the database, leave the pool room for another address", async () => {
  const { perAddress } = readConcurrentCallLimits(server.config);
  expect(perAddress).toBeGreaterThan(0);
  const api = `${server.url}/api`;
  expect((await call(`${api}/messages/list`)).status).toBe(200);

  await lockHolder.query(`BEGIN; LOCK TABLE "${database.schema}".messages IN ACCESS EXCLUSIVE MODE`);
  let held: Promise<number>[] = [];
  try {
    // Plain fetch: these calls wait for the lock for as long as the test holds it, past call()'s hang guard.
    held = Array.from({ length: perAddress }, () => fetch(`${api}/messages/list`).then(async (response) => (await response.text(), response.status)));
    // Each held call opens a pooled connection of its own first, which takes a while on a loaded machine.
    await waitFor(async () => (await waiting()) === perAddress, { timeout: 30_000 });

    const over = await call(`${api}/messages/list`);
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ type: ErrorType.CONNECTION_RATE_LIMITED, key: "address", value: { limit: perAddress } });

    const elsewhere = new Connection({ type: CONNECTION_TYPE.web, remoteAddress: "10.3.0.1" });
    const created = await server.runAction("user:create", { name: "Grace Hopper", email: "grace@example.com", password: "compiler compiler" }, elsewhere);
    expect(created.error).toBeUndefined();
    expect(created.status).toBe(200);
  } finally {
    await lockHolder.query("COMMIT");
  }
  expect(new Set(await Promise.all(held))).toEqual(new Set([200]));
}, HOOK_TIMEOUT);
