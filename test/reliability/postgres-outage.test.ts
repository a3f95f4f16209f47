import { join } from "node:path";
import { ErrorType, HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { TcpProxy } from "../support/tcp-proxy";
import { call } from "./support/http";
import { WsClient } from "./support/ws-client";
import { POSTGRES_URL, usePostgresSchema } from "./support/postgres-schema";

/**
 * PostgreSQL goes away in the middle of a run and comes back: the sample app reaches the shared
 * PostgreSQL through a proxy of this file alone, which the test cuts and restores.
 */
const sampleApp = join(__dirname, "../../sample-app");
const database = usePostgresSchema("postgres_outage");

let proxy: TcpProxy;
let server: HeraldServer;
let api: string;

beforeAll(async () => {
  const target = new URL(POSTGRES_URL);
  proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
  server = await startTestServer({
    appDir: sampleApp,
    // A short action timeout bounds a call that waits on a database that hangs.
    env: { DATABASE_URL: database.urlVia(proxy.port), REDIS_URL: "", LOG_LEVEL: "fatal", ACTION_TIMEOUT: "2000" },
  });
  api = `${server.url}/api`;
}, HOOK_TIMEOUT);

afterAll(async () => {
  proxy?.restore();
  await server?.stop();
  await proxy?.close();
}, HOOK_TIMEOUT);

const signUp = (email: string) =>
  call(`${api}/user`, { method: "PUT", body: { name: "Ada Lovelace", email, password: "correct horse battery" } });

test("while PostgreSQL is unreachable, database actions answer 503 at once and status names the database", async () => {
  expect((await signUp("before@example.com")).status).toBe(200);
  expect((await call(`${api}/messages/list`)).status).toBe(200);

  proxy.cut();

  for (const answer of [await call(`${api}/messages/list`), await signUp("during@example.com")]) {
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE, message: expect.stringMatching(/^The database is unavailable/) });
  }
  const socket = await WsClient.open(server.url!);
  expect(await socket.call("messages:list")).toMatchObject({
    error: { type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE, message: expect.stringMatching(/^The database is unavailable/) },
  });
  await socket.close();
  const status = await call(`${api}/status`);
  expect(status.status).toBe(503);
  expect(status.body.error.value.services.database).toMatchObject({ healthy: false });
});

test("when PostgreSQL is back, the pool recovers by itself", async () => {
  proxy.restore();
  await waitFor(async () => (await call(`${api}/status`)).status === 200, { timeout: 20_000, interval: 200 });

  expect((await signUp("after@example.com")).status).toBe(200);
  const list = await call(`${api}/messages/list`);
  expect(list).toMatchObject({ status: 200, body: { pagination: { page: 1 } } });
});

test("while PostgreSQL hangs, a database call ends at the action timeout and the server keeps serving; the pool recovers after", async () => {
  expect((await call(`${api}/messages/list`)).status).toBe(200);
  proxy.freeze();

  const hung = await call(`${api}/messages/list`);
  expect(hung.status).toBe(504);
  expect(hung.body.error.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
  expect((await call(`${api}/status`)).status).toBe(503);

  // A hung server is recovered from by dropping its connections, as a restart of it would.
  proxy.cut();
  proxy.restore();
  await waitFor(async () => (await call(`${api}/status`)).status === 200, { timeout: 20_000, interval: 200 });
  expect((await call(`${api}/messages/list`)).status).toBe(200);
});
