import { serverUrl, useTestServer } from "herald/testing";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { createUser, SAMPLE_APP } from "../sample-app/support/app";
import { authorize, pkcePair, REDIRECT_URI, registerClient, tokenRequest } from "./support/oauth-flow";

const postgres = usePostgresSchema("auth_registration");
const { prefix, redis } = useTestRedis("auth-registration");
const name = prefix.slice(0, -1);
// Loopback is a trusted proxy here, so that X-Forwarded-For stands for callers at other addresses.
useTestServer({
  appDir: SAMPLE_APP,
  env: {
    DATABASE_URL: postgres.url,
    REDIS_URL: TEST_REDIS_URL,
    NAME: name,
    LOG_LEVEL: "fatal",
    HTTP_TRUST_PROXY: "loopback",
    OAUTH_REGISTRATIONS_PER_ADDRESS: "3",
    OAUTH_REGISTRATIONS_PER_HOUR: "6",
    OAUTH_PENDING_CLIENT_TTL: "3600",
  },
});

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
beforeAll(() => createUser(ada));
// Each test starts with the server's budget whole; the addresses' budgets are each test's own.
beforeEach(() => redis.del(`${name}:ratelimit:oauth:register:all`));

async function storedClients(): Promise<number> {
  let count = 0;
  for await (const batch of redis.scanStream({ match: `${name}:oauth:Client:*`, count: 500 })) count += (batch as string[]).length;
  return count;
}

function register(address: string): Promise<Response> {
  return fetch(`${serverUrl()}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": address },
    body: JSON.stringify({ client_name: "Flood", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }),
  });
}

async function statuses(address: string, times: number): Promise<number[]> {
  const answers: number[] = [];
  for (let at = 0; at < times; at++) answers.push((await register(address)).status);
  return answers;
}

test("one address registers its budget, then 429 with Retry-After; other addresses together stop at the server's budget, 503", async () => {
  const before = await storedClients();
  expect(await statuses("198.51.100.1", 3)).toEqual([201, 201, 201]);
  const refused = await register("198.51.100.1");
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await refused.json()).toEqual({ error: "temporarily_unavailable", error_description: expect.stringContaining("this address") });

  expect(await statuses("198.51.100.2", 3)).toEqual([201, 201, 201]);
  const busy = await register("198.51.100.3");
  expect(busy.status).toBe(503);
  expect(Number(busy.headers.get("retry-after"))).toBeGreaterThan(0);
  // Nothing was stored for the refused registrations: only the six admitted ones.
  expect((await storedClients()) - before).toBe(6);
});

test("a registered client expires unless a grant completes; once a token is issued it lives as long as a refresh token", async () => {
  const base = serverUrl();
  const clientId = await registerClient(base);
  const key = `${name}:oauth:Client:${clientId}`;
  const pending = await redis.ttl(key);
  expect(pending).toBeGreaterThan(0);
  expect(pending).toBeLessThanOrEqual(3600);

  const { verifier, challenge } = pkcePair();
  const redirect = (await authorize({ base, clientId, challenge, credentials: { email: ada.email, password: ada.password } })) as URL;
  const tokens = await tokenRequest(base, { grant_type: "authorization_code", code: redirect.searchParams.get("code")!, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT_URI });
  expect(tokens.status).toBe(200);
  expect(await redis.ttl(key)).toBeGreaterThan(29 * 86_400);
});

test("a redirect URI over plain http is refused at registration unless it is loopback; https is registered", async () => {
  const attempt = (address: string, metadata: Record<string, unknown>) =>
    fetch(`${serverUrl()}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": address },
      body: JSON.stringify({ client_name: "Web", token_endpoint_auth_method: "none", ...metadata }),
    });
  const clear = await attempt("198.51.100.20", { redirect_uris: ["http://app.example/callback"] });
  expect(clear.status).toBe(400);
  expect(await clear.json()).toEqual({ error: "invalid_redirect_uri", error_description: expect.stringContaining("http://app.example/callback") });
  const mixed = await attempt("198.51.100.20", { redirect_uris: ["https://app.example/callback", "http://app.example/other"] });
  expect(mixed.status).toBe(400);
  expect((await attempt("198.51.100.21", { redirect_uris: ["https://app.example/callback"] })).status).toBe(201);
  expect((await attempt("198.51.100.21", { application_type: "web", redirect_uris: ["http://localhost:3000/callback"] })).status).toBe(201);
});
