import { User } from "../../sample-app/entities/user";
import { verifyPassword } from "../../sample-app/lib/passwords";
import { useTestServer } from "herald/testing";
import { usePostgresSchema } from "./support/postgres";
import { createUser, database, run, SAMPLE_APP, signedIn, truncateAll, webConnection } from "./support/app";

const postgres = usePostgresSchema("sample_users");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url } });
beforeEach(truncateAll);

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };

describe("user:create", () => {
  test("creates a user and returns it without secrets", async () => {
    const result = await run("user:create", ada);
    expect(result.status).toBe(200);
    const { user } = result.response as { user: Record<string, unknown> };
    expect(user).toEqual({
      id: expect.any(Number),
      name: "Ada Lovelace",
      email: "ada@example.com",
      created_at: expect.any(Date),
      updated_at: expect.any(Date),
    });
    expect(JSON.stringify(result.response)).not.toMatch(/password|scrypt|analytical/);
  });

  test("stores an scrypt hash that verifies the password, never the password", async () => {
    const result = await run("user:create", ada);
    const { user } = result.response as { user: { id: number } };
    const stored = await database().getRepository(User).findOneByOrFail({ id: user.id });
    expect(stored.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(stored.password_hash).not.toContain(ada.password);
    await expect(verifyPassword(ada.password, stored.password_hash)).resolves.toBe(true);
    await expect(verifyPassword("analytical engines", stored.password_hash)).resolves.toBe(false);
  });

  test("a second sign-up with the same e-mail, in any case, is a 409 conflict", async () => {
    expect((await run("user:create", ada)).status).toBe(200);
    const again = await run("user:create", { ...ada, name: "Another Ada", email: "ADA@Example.com" });
    expect(again.status).toBe(409);
    expect(again.error).toMatchObject({ type: "CONNECTION_CONFLICT", key: "email" });
    expect(await database().getRepository(User).count()).toBe(1);
  });

  test.each([
    ["name", { ...ada, name: "Al" }],
    ["email", { ...ada, email: "not-an-address" }],
    ["password", { ...ada, password: "short" }],
  ])("rejects an invalid %s with 422", async (key, params) => {
    const result = await run("user:create", params);
    expect(result.status).toBe(422);
    expect(result.error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key });
  });

  test("never echoes the password in a validation error", async () => {
    const result = await run("user:create", { ...ada, password: "short" });
    expect(result.error?.value).toBeUndefined();
    expect(JSON.stringify(result.error)).not.toContain("short");
  });

  test("requires every field", async () => {
    const result = await run("user:create", { name: "Ada Lovelace" });
    expect(result.status).toBe(422);
    expect(result.error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_REQUIRED" });
  });
});

describe("user:view", () => {
  const grace = { name: "Grace Hopper", email: "grace@example.com", password: "compile this" };

  test("shows the signed-in user their own profile, e-mail included", async () => {
    const created = (await run("user:create", ada)).response as { user: { id: number } };
    const result = await run("user:view", { user: String(created.user.id) }, await signedIn(ada.email, ada.password));
    expect(result.status).toBe(200);
    expect(result.response).toEqual({ user: created.user });
  });

  test("shows another user's profile without their e-mail address", async () => {
    const adaId = await createUser(ada);
    await createUser(grace);
    const result = await run("user:view", { user: adaId }, await signedIn(grace.email, grace.password));
    expect(result.status).toBe(200);
    expect(result.response).toEqual({
      user: { id: adaId, name: "Ada Lovelace", created_at: expect.any(Date), updated_at: expect.any(Date) },
    });
  });

  test("is refused with 401 to a caller who is not signed in", async () => {
    const adaId = await createUser(ada);
    for (const connection of [undefined, await webConnection()]) {
      const result = await run("user:view", { user: adaId }, connection);
      expect(result.status).toBe(401);
      expect(result.error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", message: "Sign in first" });
    }
  });

  test("a missing user is a 404 naming the entity", async () => {
    await createUser(ada);
    const result = await run("user:view", { user: 999 }, await signedIn(ada.email, ada.password));
    expect(result.status).toBe(404);
    expect(result.error).toMatchObject({ type: "CONNECTION_NOT_FOUND", message: "User 999 not found" });
  });
});

describe("user:edit", () => {
  const grace = { name: "Grace Hopper", email: "grace@example.com", password: "compile this" };

  test("changes the signed-in user's name and e-mail address, and only theirs", async () => {
    const adaId = await createUser(ada);
    const graceId = await createUser(grace);
    const connection = await signedIn(ada.email, ada.password);
    const result = await run("user:edit", { name: "Countess Lovelace", email: "Countess@Example.com" }, connection);
    expect(result.status).toBe(200);
    expect(result.response).toEqual({
      user: { id: adaId, name: "Countess Lovelace", email: "countess@example.com", created_at: expect.any(Date), updated_at: expect.any(Date) },
    });
    const rows = await database().getRepository(User).find({ order: { id: "ASC" } });
    expect(rows.map(({ id, name, email }) => ({ id, name, email }))).toEqual([
      { id: adaId, name: "Countess Lovelace", email: "countess@example.com" },
      { id: graceId, name: "Grace Hopper", email: "grace@example.com" },
    ]);
  });

  test("a new password replaces the hash and retires the session id it was changed under", async () => {
    const adaId = await createUser(ada);
    const connection = await signedIn(ada.email, ada.password);
    const before = connection.session!.id;
    const result = await run("user:edit", { password: "difference engine", currentPassword: ada.password }, connection);
    expect(result.status).toBe(200);
    expect(JSON.stringify(result.response)).not.toMatch(/password|scrypt|difference/);
    expect(connection.session!.id).not.toBe(before);
    expect(connection.session!.get("userId")).toBe(adaId);
    const stored = await database().getRepository(User).findOneByOrFail({ id: adaId });
    await expect(verifyPassword("difference engine", stored.password_hash)).resolves.toBe(true);
    await expect(verifyPassword(ada.password, stored.password_hash)).resolves.toBe(false);
  });

  test("an e-mail address another user has is a 409 conflict, and nothing changes", async () => {
    await createUser(ada);
    await createUser(grace);
    const result = await run("user:edit", { name: "Ada Again", email: "GRACE@example.com" }, await signedIn(ada.email, ada.password));
    expect(result.status).toBe(409);
    expect(result.error).toMatchObject({ type: "CONNECTION_CONFLICT", key: "email" });
    const stored = await database().getRepository(User).findOneByOrFail({ email: ada.email });
    expect(stored.name).toBe("Ada Lovelace");
  });

  test("validates each field it is given as sign-up does", async () => {
    await createUser(ada);
    const result = await run("user:edit", { password: "short" }, await signedIn(ada.email, ada.password));
    expect(result.status).toBe(422);
    expect(result.error).toMatchObject({ key: "password" });
    expect(JSON.stringify(result.error)).not.toContain("short");
  });

  test("is refused with 401 to a caller who is not signed in", async () => {
    await createUser(ada);
    const result = await run("user:edit", { name: "Mallory" }, await webConnection());
    expect(result.status).toBe(401);
    expect(result.error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED" });
    expect((await database().getRepository(User).findOneByOrFail({ email: ada.email })).name).toBe("Ada Lovelace");
  });
});
