import { serverUrl, useTestServer } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { createUser, SAMPLE_APP } from "../sample-app/support/app";
import { pkcePair, REDIRECT_URI, registerClient } from "./support/oauth-flow";

const postgres = usePostgresSchema("auth_sign_in_limit");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, REDIS_URL: "", LOG_LEVEL: "fatal", PASSWORD_FAILURES_PER_ACCOUNT: "2" } });

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
beforeAll(() => createUser(ada));

test("a sign-in past the app's rate limit is 429 with Retry-After on the form, as the API answers it; a wrong password before it 401", async () => {
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
  const attempt = () =>
    fetch(`${url}/login`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: ada.email, password: "not the password" }),
    });
  for (let at = 0; at < 2; at++) {
    const wrong = await attempt();
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("retry-after")).toBeNull();
  }
  const limited = await attempt();
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  const html = await limited.text();
  expect(html).toContain('<form method="post"');
  expect(html).toMatch(/Too many calls/);
});
