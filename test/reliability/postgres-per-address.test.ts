import { Connection, CONNECTION_TYPE, ErrorType, readConcurrentCallLimits } from "herald";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { call } from "./support/http";
import { useSampleAppOnPostgres } from "./support/sample-app-on-postgres";

/**
 * One address cannot hold the sample app's whole database pool: with the default bound on one
 * address's calls in flight, that many calls held by the database leave the pool room for another
 * address's call, and the call over the bound is refused at once instead of waiting for a connection.
 */
// The framework's defaults for the bounds and the app's for the pool: nothing set here.
const app = useSampleAppOnPostgres("postgres_per_address");

/** How many queries wait for the lock on the messages table: the pooled connections the calls hold. */
const waiting = () => app.waiting("relation = $1::regclass", [`"${app.schema}".messages`]);

test("one address's calls in flight, held by the database, leave the pool room for another address", async () => {
  const { server, lockHolder } = app;
  const { perAddress } = readConcurrentCallLimits(server.config);
  expect(perAddress).toBeGreaterThan(0);
  const api = `${server.url}/api`;
  expect((await call(`${api}/messages/list`)).status).toBe(200);

  await lockHolder.query(`BEGIN; LOCK TABLE "${app.schema}".messages IN ACCESS EXCLUSIVE MODE`);
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
