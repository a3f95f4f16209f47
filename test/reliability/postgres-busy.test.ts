import { DataSource } from "typeorm";
import { ErrorType } from "herald";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { call } from "./support/http";
import { useSampleAppOnPostgres } from "./support/sample-app-on-postgres";
import { WsClient } from "./support/ws-client";

/**
 * A database pool that is merely busy is not a database that is down: with every pooled
 * connection of the sample app held by queries that wait on a lock this test holds, a call that
 * finds no connection is answered 503 CONNECTION_SERVICE_BUSY (retry), /api/status stays healthy,
 * and one WebSocket connection cannot have more than its bound of calls in flight.
 */
const LOCK = 7_301_447;
const POOL_SIZE = 10;
const PER_CONNECTION = 4;

const app = useSampleAppOnPostgres("postgres_busy", {
  // Longer than the sample app's wait for a pooled connection (5 s), which then ends the call.
  ACTION_TIMEOUT: "30000",
  STATUS_CACHE_MS: "0",
  MAX_CONCURRENT_CALLS_PER_CONNECTION: String(PER_CONNECTION),
  // A small pool the test can fill, with the address bound below it as the app wants.
  DATABASE_POOL_SIZE: String(POOL_SIZE),
  MAX_CONCURRENT_CALLS_PER_ADDRESS: String(POOL_SIZE - 2),
  WS_MAX_MESSAGES_PER_SECOND: "1000",
});

/** How many sessions wait for this test's lock: the pooled connections it holds. */
const waiting = () => app.waiting("locktype = 'advisory' AND objid = $1", [LOCK]);

test("a saturated pool answers 503 busy with Retry-After, status stays healthy, one socket is bounded", async () => {
  const { server, lockHolder } = app;
  const api = `${server.url}/api`;
  expect((await call(`${api}/messages/list`)).status).toBe(200);
  const dataSource = server.container.resolve(DataSource);

  await lockHolder.query("SELECT pg_advisory_lock($1)", [LOCK]);
  const holders = Array.from({ length: POOL_SIZE }, () => dataSource.query("SELECT pg_advisory_xact_lock_shared($1)", [LOCK]));
  await waitFor(async () => (await waiting()) === POOL_SIZE, { timeout: 20_000 });

  // One socket sends more calls than it may have in flight: the excess is refused at once.
  const socket = await WsClient.open(server.url!);
  const replies = Array.from({ length: PER_CONNECTION + 3 }, () => socket.call("messages:list"));
  const status = await call(`${api}/status`);
  const busy = await call(`${api}/messages/list`);
  const answers = await Promise.all(replies);
  await socket.close();

  expect(status.status).toBe(200);
  expect(status.body).toMatchObject({ healthy: true, services: { database: { healthy: true, busy: true } } });

  expect(busy.status).toBe(503);
  expect(busy.headers.get("retry-after")).toBe("1");
  expect(busy.body.error).toMatchObject({ type: ErrorType.CONNECTION_SERVICE_BUSY, message: "The database is busy, retry shortly" });

  const types = answers.map((answer) => answer.error?.type);
  expect(types.filter((type) => type === ErrorType.CONNECTION_RATE_LIMITED)).toHaveLength(3);
  expect(types.filter((type) => type === ErrorType.CONNECTION_SERVICE_BUSY)).toHaveLength(PER_CONNECTION);
  expect(answers.find((answer) => answer.error?.type === ErrorType.CONNECTION_RATE_LIMITED)!.error).toMatchObject({
    key: "connection",
    value: { limit: PER_CONNECTION },
  });

  await lockHolder.query("SELECT pg_advisory_unlock($1)", [LOCK]);
  await Promise.all(holders);
  const after = await call(`${api}/status`);
  expect(after.status).toBe(200);
  expect(after.body.services.database).toEqual({ healthy: true, latencyMs: expect.any(Number) });
  expect((await call(`${api}/messages/list`)).status).toBe(200);
}, HOOK_TIMEOUT);
