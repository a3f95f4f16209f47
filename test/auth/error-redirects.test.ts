import { serverUrl, useTestServer } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { createUser, SAMPLE_APP } from "../sample-app/support/app";
import { authorize, CookieJar, pkcePair, REDIRECT_URI, registerClient } from "./support/oauth-flow";

const postgres = usePostgresSchema("auth_error_redirects");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, REDIS_URL: "", LOG_LEVEL: "fatal" } });

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
beforeAll(() => createUser(ada).then(() => undefined));

const PHISHING = "https://evil.example/phish";

/** The parameters of a redirect: an implicit-grant request's error comes back in the fragment. */
function fragmentParams(location: URL): URLSearchParams {
  return new URLSearchParams(location.hash.slice(1));
}

/** A request bound to fail: an implicit grant, no PKCE, and no page to show. */
function badAuthorize(clientId: string, redirectUri: string, jar = new CookieJar()): Promise<Response> {
  const query = new URLSearchParams({ client_id: clientId, response_type: "token", prompt: "none", redirect_uri: redirectUri, state: "s" });
  return fetch(`${serverUrl()}/oauth/authorize?${query}`, { redirect: "manual", headers: { Cookie: jar.header() } });
}

test("an error for a client no one granted is shown on a page, not sent to its redirect URI", async () => {
  const clientId = await registerClient(serverUrl(), { redirect_uris: [PHISHING] });
  const answer = await badAuthorize(clientId, PHISHING);
  expect(answer.status).toBe(400);
  expect(answer.headers.get("location")).toBeNull();
  expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
  const page = await answer.text();
  expect(page).toContain("unsupported_response_type");
  expect(page).not.toContain("evil.example");
});

test("prompt=none without a signed-in user stays on the page too, for a client no one granted", async () => {
  const clientId = await registerClient(serverUrl(), { redirect_uris: [PHISHING] });
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    prompt: "none",
    redirect_uri: PHISHING,
    code_challenge: pkcePair().challenge,
    code_challenge_method: "S256",
  });
  const answer = await fetch(`${serverUrl()}/oauth/authorize?${query}`, { redirect: "manual" });
  expect(answer.status).toBe(400);
  expect(answer.headers.get("location")).toBeNull();
  expect(await answer.text()).toContain("login_required");
});

test("an error for a loopback redirect URI goes back to it: it lands on the user's own machine", async () => {
  const clientId = await registerClient(serverUrl());
  const answer = await badAuthorize(clientId, REDIRECT_URI);
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get("location")!);
  expect(location.origin + location.pathname).toBe(REDIRECT_URI);
  expect(fragmentParams(location).get("error")).toBe("unsupported_response_type");
  expect(fragmentParams(location).get("state")).toBe("s");
});

test("an error for a client the browser's user has granted goes back to it", async () => {
  const base = serverUrl();
  const clientId = await registerClient(base, { redirect_uris: [PHISHING] });
  const jar = new CookieJar();
  const granted = await authorize({ base, clientId, challenge: pkcePair().challenge, credentials: { email: ada.email, password: ada.password }, redirectUri: PHISHING, jar });
  expect(granted).toBeInstanceOf(URL);
  expect((granted as URL).searchParams.get("code")).toEqual(expect.any(String));

  const answer = await badAuthorize(clientId, PHISHING, jar);
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get("location")!);
  expect(location.origin + location.pathname).toBe(PHISHING);
  expect(fragmentParams(location).get("error")).toBe("unsupported_response_type");

  // The same browser's grant does not vouch for another client with the same redirect URI.
  const other = await registerClient(base, { redirect_uris: [PHISHING] });
  expect((await badAuthorize(other, PHISHING, jar)).status).toBe(400);
});
