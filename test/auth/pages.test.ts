import { serverUrl, useTestServer } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { createUser, SAMPLE_APP, truncateAll } from "../sample-app/support/app";
import { authorize, pkcePair, REDIRECT_URI, registerClient } from "./support/oauth-flow";

const postgres = usePostgresSchema("auth_pages");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, REDIS_URL: "", LOG_LEVEL: "fatal" } });
beforeEach(truncateAll);

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };

test("the metadata names an issuer without a path, endpoints under /oauth, PKCE S256 only and the iss parameter", async () => {
  const response = await fetch(`${serverUrl()}/.well-known/oauth-authorization-server`);
  expect(response.status).toBe(200);
  const metadata = (await response.json()) as Record<string, unknown>;
  const origin = new URL(serverUrl()).origin;
  expect(metadata).toMatchObject({
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    code_challenge_methods_supported: ["S256"],
    response_types_supported: ["code"],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    token_endpoint_auth_methods_supported: ["none"],
  });
  expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
  expect(metadata.grant_types_supported).not.toContain("implicit");
});

/** The sign-in page of a fresh authorization request, with the cookie that goes with it. */
async function signInPage(): Promise<{ url: string; cookie: string; html: string }> {
  const base = serverUrl();
  const query = new URLSearchParams({
    client_id: await registerClient(base),
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    code_challenge: pkcePair().challenge,
    code_challenge_method: "S256",
  });
  const start = await fetch(`${base}/oauth/authorize?${query}`, { redirect: "manual" });
  const url = new URL(start.headers.get("location")!, base).href;
  const cookie = start.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const page = await fetch(url, { headers: { Cookie: cookie } });
  expect(page.status).toBe(200);
  expect(page.headers.get("content-security-policy")).toContain(`form-action 'self' ${new URL(REDIRECT_URI).origin}`);
  return { url, cookie, html: await page.text() };
}

test("the sign-in page has a field per input of the sign-in action: an email field and a password field", async () => {
  const { html } = await signInPage();
  expect(html).toMatch(/<input id="field-email" name="email" type="email"[^>]*required>/);
  expect(html).toMatch(/<input id="field-password" name="password" type="password"[^>]*required>/);
  expect(html).toContain("Test Client");
  expect(html).not.toMatch(/<script/i);
});

test("a submission the action refuses shows its errors on the form, keeps the address and never echoes the password", async () => {
  const { url, cookie } = await signInPage();
  const answer = await fetch(`${url}/login`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "not <an> address", password: "hunter22 secret" }),
  });
  expect(answer.status).toBe(422);
  const html = await answer.text();
  expect(html).toContain('id="field-email-error"');
  expect(html).toContain('value="not &lt;an&gt; address"');
  expect(html).not.toContain("hunter22");
});

test("a sign-in form over 64 KiB is refused 413", async () => {
  const { url, cookie } = await signInPage();
  const answer = await fetch(`${url}/login`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: ada.email, password: "x".repeat(100_000) }),
  });
  expect(answer.status).toBe(413);
});

test("a submission from another site is refused before the action runs", async () => {
  const { url, cookie } = await signInPage();
  const answer = await fetch(`${url}/login`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: ada.email, password: ada.password }),
  });
  expect(answer.status).toBe(403);
});

test("a submission without the interaction cookie is refused", async () => {
  const { url } = await signInPage();
  const answer = await fetch(`${url}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: ada.email, password: ada.password }),
  });
  expect(answer.status).toBe(400);
  expect(await answer.text()).toContain("expired or was started in another browser");
});

test("denying consent sends the client access_denied and no code", async () => {
  await createUser(ada);
  const base = serverUrl();
  const clientId = await registerClient(base);
  const redirect = await authorize({ base, clientId, challenge: pkcePair().challenge, credentials: ada, decision: "deny" });
  expect(redirect).toBeInstanceOf(URL);
  expect((redirect as URL).searchParams.get("error")).toBe("access_denied");
  expect((redirect as URL).searchParams.get("code")).toBeNull();
});
