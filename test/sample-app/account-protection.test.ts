import { Connection, CONNECTION_TYPE, SessionManager } from "herald";
import { serverUrl, testServer, useTestServer } from "herald/testing";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { usePostgresSchema } from "./support/postgres";
import { SAMPLE_APP, truncateAll } from "./support/app";

const postgres = usePostgresSchema("sample_account_protection");
const { prefix, redis } = useTestRedis("account-protection");
// Sessions and rate-limit counters in Redis, as a deployment of several processes keeps them,
// under a prefix of this run's own: the counters outlive the run by fifteen minutes.
useTestServer({
  appDir: SAMPLE_APP,
  env: { DATABASE_URL: postgres.url, REDIS_URL: TEST_REDIS_URL, RATE_LIMIT_PREFIX: `${prefix}rl:`, SESSION_REDIS_PREFIX: `${prefix}s:` },
});
beforeEach(truncateAll);
interface Reply {
  status: number;
  json: any;
  cookie: string | undefined;
}

async function call(method: string, path: string, body?: object, headers: Record<string, string> = {}): Promise<Reply> {
  const response = await fetch(`${serverUrl()}/api${path}`, {
    method,
    headers: { ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, json: await response.json(), cookie: response.headers.getSetCookie()[0]?.split(";")[0] };
}

/** A fresh account per test: the rate-limit counters in Redis outlive a test, the users table does not. */
function account(label: string) {
  return { name: "Ada Lovelace", email: `${label}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`, password: "analytical engine" };
}

async function signIn(email: string, password: string, headers: Record<string, string> = {}): Promise<Reply> {
  return call("PUT", "/session", { email, password }, headers);
}

describe("changing the password", () => {
  test("needs the current password: 422 without it, 401 with a wrong one, and the password stays", async () => {
    const ada = account("current-password");
    await call("PUT", "/user", ada);
    const { cookie } = await signIn(ada.email, ada.password);
    const missing = await call("POST", "/user", { password: "difference engine" }, { Cookie: cookie! });
    expect(missing.status).toBe(422);
    expect(missing.json.error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_REQUIRED", key: "currentPassword" });
    const wrong = await call("POST", "/user", { password: "difference engine", currentPassword: "a guess" }, { Cookie: cookie! });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", key: "currentPassword" });
    expect(JSON.stringify(wrong.json)).not.toContain("a guess");
    expect((await signIn(ada.email, ada.password)).status).toBe(200);
    expect((await signIn(ada.email, "difference engine")).status).toBe(401);
  });

  test("signs out the user's other sessions, keeps the one it was made in, and no one else's", async () => {
    const ada = account("other-sessions");
    const grace = { ...account("bystander"), name: "Grace Hopper" };
    await call("PUT", "/user", ada);
    await call("PUT", "/user", grace);
    const [laptop, phone, bystander] = [await signIn(ada.email, ada.password), await signIn(ada.email, ada.password), await signIn(grace.email, grace.password)];
    const changed = await call("POST", "/user", { password: "difference engine", currentPassword: ada.password }, { Cookie: laptop.cookie! });
    expect(changed.status).toBe(200);
    expect(changed.cookie).toBeDefined();
    expect(changed.cookie).not.toBe(laptop.cookie);
    expect((await call("GET", "/session", undefined, { Cookie: changed.cookie! })).status).toBe(200);
    expect((await call("GET", "/session", undefined, { Cookie: phone.cookie! })).status).toBe(401);
    expect((await call("GET", "/session", undefined, { Cookie: laptop.cookie! })).status).toBe(401);
    expect((await call("GET", "/session", undefined, { Cookie: bystander.cookie! })).status).toBe(200);
  });
});

/** A browser's connection from `remoteAddress`, with a session of its own: each test's failures count against an address of its own. */
async function browserAt(remoteAddress: string): Promise<Connection> {
  const session = await testServer().container.resolve(SessionManager).open();
  return new Connection({ type: CONNECTION_TYPE.web, remoteAddress, session });
}

async function signInAt(remoteAddress: string, email: string, password: string, connection?: Connection): Promise<number> {
  return (await testServer().runAction("session:create", { email, password }, connection ?? (await browserAt(remoteAddress)))).status;
}

describe("only wrong passwords count", () => {
  test("signing in correctly, more often than either limit, from one address and several accounts, is never refused", async () => {
    const colleagues = [account("office-a"), account("office-b"), account("office-c")];
    for (const colleague of colleagues) expect((await call("PUT", "/user", colleague)).status).toBe(200);
    const statuses = [];
    for (let round = 1; round <= 12; round++) {
      for (const colleague of colleagues) statuses.push(await signInAt("10.1.0.1", colleague.email, colleague.password));
    }
    expect(statuses).toHaveLength(36);
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  test("a correct sign-in clears the account's count of wrong passwords", async () => {
    const ada = account("cleared");
    await call("PUT", "/user", ada);
    const wrong = async (times: number) => {
      const statuses = [];
      for (let attempt = 1; attempt <= times; attempt++) statuses.push(await signInAt("10.1.0.2", ada.email, `wrong guess ${attempt}`));
      return new Set(statuses);
    };
    expect(await wrong(9)).toEqual(new Set([401]));
    expect(await signInAt("10.1.0.2", ada.email, ada.password)).toBe(200);
    expect(await wrong(10)).toEqual(new Set([401]));
    expect(await signInAt("10.1.0.2", ada.email, ada.password)).toBe(429);
  });

  test("wrong current passwords on a change spend the account's budget, which sign-ins share", async () => {
    const ada = account("current-guesses");
    await call("PUT", "/user", ada);
    const stolen = await browserAt("10.1.0.3");
    expect(await signInAt("10.1.0.3", ada.email, ada.password, stolen)).toBe(200);
    const change = (currentPassword: string) =>
      testServer().runAction("user:edit", { password: "difference engine", currentPassword }, stolen);
    const statuses = [];
    for (let attempt = 1; attempt <= 10; attempt++) statuses.push((await change(`guess ${attempt}`)).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
    const refused = await change(ada.password);
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ type: "CONNECTION_RATE_LIMITED", value: { limit: 10, windowMs: 900_000 } });
    // The same budget: signing in is refused too, from anywhere; an edit that changes no password is not limited.
    expect(await signInAt("10.1.0.4", ada.email, ada.password)).toBe(429);
    expect((await testServer().runAction("user:edit", { name: "Ada King" }, stolen)).status).toBe(200);
  });
});

// Last in the file: the per-address test spends what is left of 127.0.0.1's budget.
describe("failed sign-ins are limited", () => {
  test("per account: after ten wrong passwords within fifteen minutes the next sign-in is 429, even with the right password", async () => {
    const ada = account("per-account");
    expect((await call("PUT", "/user", ada)).status).toBe(200);
    for (let attempt = 1; attempt <= 10; attempt++) expect((await signIn(ada.email, `wrong guess ${attempt}`)).status).toBe(401);
    const refused = await signIn(ada.email.toUpperCase(), ada.password);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({ type: "CONNECTION_RATE_LIMITED", value: { limit: 10, windowMs: 900_000 } });
    expect(refused.cookie).toBeUndefined();
  });

  test("per address: one client trying many accounts is refused after thirty failures", async () => {
    // Forwarded addresses are not trusted (HTTP_TRUST_PROXY is off), so every failure counts against 127.0.0.1's budget:
    // earlier tests of this file may have used some of it, and the refusal comes at the latest on the thirty-first.
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 31; attempt++) statuses.push((await signIn(account("per-address").email, "a guess", { "X-Forwarded-For": `10.0.0.${attempt}` })).status);
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
  });
});
