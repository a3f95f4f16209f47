import { Connection, CONNECTION_TYPE, SESSION_STORE_TOKEN } from "herald";
import { testServer, useTestServer } from "herald/testing";
import { User } from "../../sample-app/entities/user";
import { usePostgresSchema } from "./support/postgres";
import { createUser, database, run, SAMPLE_APP, signedIn, truncateAll, webConnection } from "./support/app";

const postgres = usePostgresSchema("sample_sessions");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url } });
beforeEach(truncateAll);

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };

describe("session:create", () => {
  test("signs in: returns the user, stores their id in the session, under a new session id", async () => {
    const id = await createUser(ada);
    const connection = await webConnection();
    await connection.session!.set("theme", "dark"); // a session from before the sign-in
    const before = connection.session!.id!;

    const result = await run("session:create", { email: "ADA@example.com", password: ada.password }, connection);
    expect(result.status).toBe(200);
    expect(result.response).toEqual({
      user: { id, name: "Ada Lovelace", email: "ada@example.com", created_at: expect.any(Date), updated_at: expect.any(Date) },
    });
    expect(connection.session!.id).not.toBe(before);
    expect(connection.session!.all()).toEqual({ theme: "dark", userId: id });
    const store = testServer().container.resolve(SESSION_STORE_TOKEN);
    await expect(store.get(before)).resolves.toBeUndefined();
  });

  test.each([
    ["a wrong password", { email: ada.email, password: "analytical engines" }],
    ["an unknown e-mail address", { email: "nobody@example.com", password: ada.password }],
  ])("with %s is 401, with one message that does not say which part was wrong", async (_label, credentials) => {
    await createUser(ada);
    const connection = await webConnection();
    const result = await run("session:create", credentials, connection);
    expect(result.status).toBe(401);
    expect(result.error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", message: "Wrong e-mail address or password" });
    expect(result.error).not.toHaveProperty("key");
    expect(connection.session!.id).toBeUndefined();
  });

  test("never echoes the password", async () => {
    const result = await run("session:create", { email: "not an address", password: "hunter22" }, await webConnection());
    expect(result.status).toBe(422);
    expect(JSON.stringify(result.error)).not.toContain("hunter22");
  });

  test("without a session to sign in (CLI, tasks, MCP) it is refused before any check", async () => {
    await createUser(ada);
    const result = await run("session:create", { email: ada.email, password: ada.password }, new Connection({ type: CONNECTION_TYPE.cli }));
    expect(result.status).toBe(401);
    expect(result.error).toMatchObject({
      type: "CONNECTION_SESSION_NOT_FOUND",
      message: "Signing in needs a session cookie: use HTTP or WebSocket",
    });
  });
});

describe("session:view", () => {
  test("shows the signed-in user", async () => {
    const id = await createUser(ada);
    const result = await run("session:view", {}, await signedIn(ada.email, ada.password));
    expect(result.response).toEqual({ user: expect.objectContaining({ id, name: "Ada Lovelace", email: "ada@example.com" }) });
  });

  test("is 401 when not signed in", async () => {
    const result = await run("session:view", {}, await webConnection());
    expect(result.status).toBe(401);
    expect(result.error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", message: "Sign in first" });
  });

  test("signs out a session whose user has been deleted", async () => {
    const id = await createUser(ada);
    const connection = await signedIn(ada.email, ada.password);
    await database().getRepository(User).delete({ id });
    const result = await run("session:view", {}, connection);
    expect(result.status).toBe(401);
    expect(connection.session!.get("userId")).toBeUndefined();
  });
});

describe("session:destroy", () => {
  test("signs out: the session is gone and the next call is anonymous", async () => {
    await createUser(ada);
    const connection = await signedIn(ada.email, ada.password);
    const id = connection.session!.id!;
    const result = await run("session:destroy", {}, connection);
    expect(result.response).toEqual({ signedOut: true });
    await expect(testServer().container.resolve(SESSION_STORE_TOKEN).get(id)).resolves.toBeUndefined();
    expect((await run("session:view", {}, connection)).status).toBe(401);
  });

  test("signing out when not signed in is not an error", async () => {
    expect((await run("session:destroy", {}, await webConnection())).response).toEqual({ signedOut: true });
    expect((await run("session:destroy", {})).response).toEqual({ signedOut: true });
  });
});
