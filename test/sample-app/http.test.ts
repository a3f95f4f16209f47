import { serverUrl, useTestServer } from "herald/testing";
import { usePostgresSchema } from "./support/postgres";
import { database, SAMPLE_APP, truncateAll } from "./support/app";

const ADMIN_API_KEY = "an-admin-key-of-at-least-32-characters";
const postgres = usePostgresSchema("sample_http");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, ADMIN_API_KEY } });
beforeEach(truncateAll);

interface Reply {
  status: number;
  json: any;
  setCookie: string[];
}

async function call(method: string, path: string, body?: object, headers: Record<string, string> = {}): Promise<Reply> {
  const response = await fetch(`${serverUrl()}/api${path}`, {
    method,
    headers: { ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, json: await response.json(), setCookie: response.headers.getSetCookie() };
}

/** The `name=value` part of a Set-Cookie header, to send back as a Cookie header. */
function cookieOf(reply: Reply): string {
  expect(reply.setCookie).toHaveLength(1);
  return reply.setCookie[0]!.split(";")[0]!;
}

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };

async function signUpAndIn(user = ada): Promise<{ id: number; cookie: string }> {
  const { json } = await call("PUT", "/user", user);
  const signIn = await call("PUT", "/session", { email: user.email, password: user.password });
  expect(signIn.status).toBe(200);
  return { id: json.user.id, cookie: cookieOf(signIn) };
}

describe("the sample actions over HTTP", () => {
  test("PUT /api/user creates a user, without secrets in the JSON, and signs no one in", async () => {
    const reply = await call("PUT", "/user", ada);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      user: { id: 1, name: "Ada Lovelace", email: "ada@example.com", created_at: expect.any(String), updated_at: expect.any(String) },
    });
    expect(new Date(reply.json.user.created_at).toISOString()).toBe(reply.json.user.created_at);
    expect(reply.setCookie).toEqual([]);
  });

  test("PUT /api/user with a taken e-mail is 409, with the error body", async () => {
    await call("PUT", "/user", ada);
    const { status, json } = await call("PUT", "/user", { ...ada, email: "Ada@Example.com" });
    expect(status).toBe(409);
    expect(json.error).toMatchObject({ type: "CONNECTION_CONFLICT", key: "email" });
  });

  test("PUT /api/user with a short password is 422 and does not echo it", async () => {
    const { status, json } = await call("PUT", "/user", { ...ada, password: "short" });
    expect(status).toBe(422);
    expect(json.error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "password" });
    expect(JSON.stringify(json)).not.toContain("short");
  });
});

describe("signing in and out over HTTP", () => {
  test("PUT /api/session sets an HttpOnly session cookie that signs later requests in", async () => {
    await call("PUT", "/user", ada);
    const signIn = await call("PUT", "/session", { email: ada.email, password: ada.password });
    expect(signIn.status).toBe(200);
    expect(signIn.json.user).toMatchObject({ id: 1, email: "ada@example.com" });
    expect(signIn.setCookie[0]).toMatch(/^herald\.sid=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);

    const cookie = cookieOf(signIn);
    const me = await call("GET", "/session", undefined, { cookie });
    expect(me).toMatchObject({ status: 200, json: { user: { id: 1, name: "Ada Lovelace" } } });
    expect((await call("GET", "/session")).status).toBe(401);
  });

  test("a wrong password is 401 and sets no cookie", async () => {
    await call("PUT", "/user", ada);
    const reply = await call("PUT", "/session", { email: ada.email, password: "not the password" });
    expect(reply.status).toBe(401);
    expect(reply.json.error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", message: "Wrong e-mail address or password" });
    expect(reply.setCookie).toEqual([]);
  });

  test("DELETE /api/session clears the cookie, and the old cookie no longer signs in", async () => {
    const { cookie } = await signUpAndIn();
    const signOut = await call("DELETE", "/session", undefined, { cookie });
    expect(signOut.json).toEqual({ signedOut: true });
    expect(signOut.setCookie[0]).toMatch(/^herald\.sid=; Max-Age=0;/);
    expect((await call("GET", "/session", undefined, { cookie })).status).toBe(401);
  });

  test("GET /api/user/:user shows the e-mail address to its owner only", async () => {
    const signedInAda = await signUpAndIn();
    const grace = await signUpAndIn({ name: "Grace Hopper", email: "grace@example.com", password: "compile this" });
    const own = await call("GET", `/user/${signedInAda.id}`, undefined, { cookie: signedInAda.cookie });
    expect(own.json.user).toMatchObject({ id: signedInAda.id, email: "ada@example.com" });
    const other = await call("GET", `/user/${signedInAda.id}`, undefined, { cookie: grace.cookie });
    expect(other.status).toBe(200);
    expect(other.json.user).not.toHaveProperty("email");
    const missing = await call("GET", "/user/999", undefined, { cookie: grace.cookie });
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ type: "CONNECTION_NOT_FOUND", message: "User 999 not found" });
    expect((await call("GET", `/user/${signedInAda.id}`)).status).toBe(401);
  });

  test("POST /api/user edits the signed-in user", async () => {
    const { id, cookie } = await signUpAndIn();
    const edited = await call("POST", "/user", { name: "Countess Lovelace" }, { cookie });
    expect(edited).toMatchObject({ status: 200, json: { user: { id, name: "Countess Lovelace", email: "ada@example.com" } } });
  });
});

describe("messages over HTTP", () => {
  test("PUT /api/message posts as the signed-in user; GET /api/messages/list pages newest first", async () => {
    const { id, cookie } = await signUpAndIn();
    for (const body of ["one", "two", "three"]) {
      const posted = await call("PUT", "/message", { body }, { cookie });
      expect(posted.status).toBe(200);
      expect(posted.json.message).toMatchObject({ body, user_id: id });
    }
    const page = await call("GET", "/messages/list?page=2&limit=2");
    expect(page).toMatchObject({
      status: 200,
      json: { messages: [{ id: 1, body: "one", user_name: "Ada Lovelace" }], pagination: { page: 2, limit: 2, total: 3, pages: 2 } },
    });
    expect((await call("GET", "/messages/list?limit=51")).status).toBe(422);
  });

  test("PUT /api/message without signing in is 401", async () => {
    const reply = await call("PUT", "/message", { body: "anonymous" });
    expect(reply.status).toBe(401);
    expect(reply.json.error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", message: "Sign in first" });
  });
});

describe("messages:cleanup, which only the task workers and the CLI may call", () => {
  beforeEach(async () => {
    const { cookie } = await signUpAndIn();
    await call("PUT", "/message", { body: "old" }, { cookie });
    await database().query(`UPDATE "messages" SET "created_at" = now() - interval '2 days'`);
  });

  test.each([
    ["no key", {}],
    ["the admin key", { "x-api-key": ADMIN_API_KEY }],
  ])("POST /api/messages/cleanup with %s is answered as a path nothing serves, and deletes nothing", async (_label, headers: Record<string, string>) => {
    const reply = await call("POST", "/messages/cleanup", {}, headers);
    const nothing = await call("POST", "/messages/nothing", {}, headers);
    expect(reply.status).toBe(404);
    expect(reply.status).toBe(nothing.status);
    const asSeen = (error: Record<string, unknown>, path: string) => {
      const { timestamp: _timestamp, stack: _stack, ...rest } = error;
      return JSON.parse(JSON.stringify(rest).split(path).join("<path>"));
    };
    expect(asSeen(reply.json.error, "/messages/cleanup")).toEqual(asSeen(nothing.json.error, "/messages/nothing"));
    expect(reply.json.error.type).toBe("CONNECTION_ACTION_NOT_FOUND");
    expect(await database().query(`SELECT count(*)::int AS n FROM "messages"`)).toEqual([{ n: 1 }]);
  });
});
