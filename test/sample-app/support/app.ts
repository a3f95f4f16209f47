import { join } from "node:path";
import { DataSource } from "typeorm";
import { Connection, CONNECTION_TYPE, SessionManager } from "herald";
import { testServer } from "herald/testing";

export const SAMPLE_APP = join(__dirname, "../../../sample-app");

/** Runs an action through the test server's pipeline: as the CLI transport would, unless a connection is given. */
export function run(action: string, params: Record<string, unknown> = {}, connection?: Connection) {
  return testServer().runAction(action, params, connection ?? new Connection({ type: CONNECTION_TYPE.cli }));
}

/** A web connection with a session of its own, anonymous until something signs it in. */
export async function webConnection(): Promise<Connection> {
  const session = await testServer().container.resolve(SessionManager).open();
  return new Connection({ type: CONNECTION_TYPE.web, session });
}

/** A web connection signed in through `session:create`, as a browser is after PUT /api/session. */
export async function signedIn(email: string, password: string): Promise<Connection> {
  const connection = await webConnection();
  const result = await run("session:create", { email, password }, connection);
  if (result.error) throw result.error;
  return connection;
}

/** Creates a user through `user:create` and returns its id. */
export async function createUser(user: { name: string; email: string; password: string }): Promise<number> {
  const result = await run("user:create", user);
  if (result.error) throw result.error;
  return (result.response as { user: { id: number } }).user.id;
}

/** The sample app's DataSource, as its actions receive it. */
export function database(): DataSource {
  return testServer().container.resolve(DataSource);
}

/** Empties the app's tables, so a test starts from nothing whatever ran before it. */
export async function truncateAll(): Promise<void> {
  await database().query('TRUNCATE "messages", "users" RESTART IDENTITY CASCADE');
}
