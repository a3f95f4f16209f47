import { LOCAL_AUTHORIZATION_SERVER } from "herald";
import { serverUrl, testServer, useTestServer } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { createUser, run, SAMPLE_APP, signedIn, truncateAll } from "../sample-app/support/app";
import { authorize, callTool, pkcePair, REDIRECT_URI, registerClient, tokenRequest } from "./support/oauth-flow";
import type { AuthorizationServer } from "../../src/auth/authorization-server";

const postgres = usePostgresSchema("auth_refusals");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, REDIS_URL: "", LOG_LEVEL: "fatal" } });
beforeEach(truncateAll);

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
const credentials = { email: ada.email, password: ada.password };

/** A code for a fresh client, signed in as Ada, with the verifier that redeems it. */
async function codeFor(): Promise<{ clientId: string; code: string; verifier: string }> {
  const base = serverUrl();
  const clientId = await registerClient(base);
  const { verifier, challenge } = pkcePair();
  const redirect = await authorize({ base, clientId, challenge, credentials });
  if (!(redirect instanceof URL)) throw new Error(`no redirect: ${redirect.status} ${await redirect.text()}`);
  const code = redirect.searchParams.get("code");
  if (!code) throw new Error(`no code: ${redirect.href}`);
  expect(redirect.searchParams.get("iss")).toBe(new URL(base).origin);
  return { clientId, code, verifier };
}

function redeem(grant: { clientId: string; code: string; verifier: string }) {
  return tokenRequest(serverUrl(), {
    grant_type: "authorization_code",
    code: grant.code,
    code_verifier: grant.verifier,
    client_id: grant.clientId,
    redirect_uri: REDIRECT_URI,
  });
}

beforeEach(() => createUser(ada).then(() => undefined));

test("a code redeemed with its verifier gives a token that calls a sign-in-only tool as the signed-in user", async () => {
  const tokens = await redeem(await codeFor());
  expect(tokens.status).toBe(200);
  const answer = await callTool(serverUrl(), "session-view", tokens.body.access_token as string);
  expect(answer.status).toBe(200);
  expect(await answer.text()).toContain(ada.email);
});

test("a wrong PKCE verifier is invalid_grant, and the code still works with the right one", async () => {
  const grant = await codeFor();
  const wrong = await redeem({ ...grant, verifier: pkcePair().verifier });
  expect(wrong).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_grant" }) });
  expect(wrong.body).not.toHaveProperty("access_token");
  expect((await redeem(grant)).status).toBe(200);
});

test("a code redeemed twice is invalid_grant, and the first redemption's token stops working", async () => {
  const grant = await codeFor();
  const first = await redeem(grant);
  expect(first.status).toBe(200);
  const second = await redeem(grant);
  expect(second).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_grant" }) });
  expect(second.body).not.toHaveProperty("access_token");
  expect((await callTool(serverUrl(), "session-view", first.body.access_token as string)).status).toBe(401);
});

test("a redirect URI the client did not register is refused on an error page, not redirected to", async () => {
  const base = serverUrl();
  const clientId = await registerClient(base);
  const answer = await authorize({ base, clientId, challenge: pkcePair().challenge, credentials, redirectUri: "https://evil.example/callback" });
  expect(answer).toBeInstanceOf(Response);
  const page = answer as Response;
  expect(page.status).toBe(400);
  expect(page.headers.get("location")).toBeNull();
  expect(await page.text()).toContain("redirect_uri");
});

test("a loopback redirect may come back on any port (RFC 8252), but not on another path", async () => {
  const base = serverUrl();
  const clientId = await registerClient(base);
  const otherPort = await authorize({ base, clientId, challenge: pkcePair().challenge, credentials, redirectUri: "http://127.0.0.1:40001/callback" });
  expect(otherPort).toBeInstanceOf(URL);
  expect((otherPort as URL).port).toBe("40001");
  expect((otherPort as URL).searchParams.get("code")).toEqual(expect.any(String));
  const otherPath = await authorize({ base, clientId, challenge: pkcePair().challenge, credentials, redirectUri: "http://127.0.0.1:53682/elsewhere" });
  expect(otherPath).toBeInstanceOf(Response);
  expect((otherPath as Response).status).toBe(400);
});

test("a token for another resource is not issued: invalid_target", async () => {
  const base = serverUrl();
  const clientId = await registerClient(base);
  const answer = await authorize({ base, clientId, challenge: pkcePair().challenge, credentials, resource: "https://elsewhere.example/mcp" });
  expect(answer).toBeInstanceOf(URL);
  expect((answer as URL).searchParams.get("error")).toBe("invalid_target");
  expect((answer as URL).searchParams.get("code")).toBeNull();
});

test("a revoked token is refused 401 invalid_token", async () => {
  const grant = await codeFor();
  const tokens = await redeem(grant);
  const token = tokens.body.access_token as string;
  const revoked = await fetch(`${serverUrl()}/oauth/revoke`, { method: "POST", body: new URLSearchParams({ token, client_id: grant.clientId }) });
  expect(revoked.status).toBe(200);
  const answer = await callTool(serverUrl(), "session-view", token);
  expect(answer.status).toBe(401);
  expect(answer.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
});

test("an expired token is refused 401 invalid_token", async () => {
  const tokens = await redeem(await codeFor());
  const token = tokens.body.access_token as string;
  // The record moved into the past rather than waiting for it: the provider's clock reads exp.
  const server = testServer().container.resolve(LOCAL_AUTHORIZATION_SERVER) as AuthorizationServer;
  const adapter = server.storage.adapter("AccessToken");
  const record = (await adapter.find(token))!;
  await adapter.upsert(token, { ...record, iat: record.iat! - 7200, exp: record.iat! - 3600 }, 60);
  const answer = await callTool(serverUrl(), "session-view", token);
  expect(answer.status).toBe(401);
  expect(answer.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
});

test("a token whose session has ended is refused, and so is its refresh token", async () => {
  const grant = await codeFor();
  const tokens = await redeem(grant);
  const token = tokens.body.access_token as string;
  const server = testServer().container.resolve(LOCAL_AUTHORIZATION_SERVER);
  const issued = await server.verifyAccessToken(token);
  await issued!.session.destroy();
  expect((await callTool(serverUrl(), "session-view", token)).status).toBe(401);
  const refresh = await tokenRequest(serverUrl(), { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token as string, client_id: grant.clientId });
  expect(refresh).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_grant" }) });
});

test("a password change signs the token's session out with every other: the token is refused", async () => {
  const tokens = await redeem(await codeFor());
  const token = tokens.body.access_token as string;
  expect((await callTool(serverUrl(), "session-view", token)).status).toBe(200);
  const browser = await signedIn(ada.email, ada.password);
  const changed = await run("user:edit", { password: "a difference engine", currentPassword: ada.password }, browser);
  expect(changed.error).toBeUndefined();
  expect((await callTool(serverUrl(), "session-view", token)).status).toBe(401);
});

test("a token this server issued for another of its resources is refused at /mcp: invalid_token", async () => {
  const other = "https://reports.example/api";
  testServer().container.resolve(LOCAL_AUTHORIZATION_SERVER).protect({ url: () => other, scopes: [] });
  const base = serverUrl();
  const clientId = await registerClient(base);
  const { verifier, challenge } = pkcePair();
  const redirect = (await authorize({ base, clientId, challenge, credentials, resource: other })) as URL;
  const tokens = await redeem({ clientId, code: redirect.searchParams.get("code")!, verifier });
  expect(tokens.status).toBe(200);
  const answer = await callTool(base, "session-view", tokens.body.access_token as string);
  expect(answer.status).toBe(401);
  expect(answer.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
});
