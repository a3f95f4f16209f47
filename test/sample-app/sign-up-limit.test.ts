import { request } from "node:http";
import { serverUrl, useTestServer } from "herald/testing";
import { usePostgresSchema } from "./support/postgres";
import { overMcp } from "./support/transports";
import { SAMPLE_APP } from "./support/app";

/**
 * Sign-up answers 409 for a taken address, which tells that the address has an account: sign-ups
 * are limited per address (SIGN_UPS_PER_ADDRESS an hour), on every transport that carries one.
 * A small limit here; a client appears as another address by binding 127.0.0.2.
 */
const LIMIT = 3;
const postgres = usePostgresSchema("sample_sign_up_limit");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, SIGN_UPS_PER_ADDRESS: String(LIMIT) } });

interface Reply {
  status: number;
  retryAfter: string | undefined;
  json: any;
}

/** PUT /api/user over a real socket, from `localAddress`. */
function signUp(user: { name: string; email: string; password: string }, localAddress = "127.0.0.1"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const sent = request(`${serverUrl()}/api/user`, { method: "PUT", localAddress, agent: false, headers: { "content-type": "application/json" } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, retryAfter: response.headers["retry-after"], json: JSON.parse(text) }));
    });
    sent.on("error", reject);
    sent.end(JSON.stringify(user));
  });
}

const person = (label: string) => ({ name: "Ada Lovelace", email: `${label}@example.com`, password: "analytical engine" });

test("one address signs up and probes taken addresses at most SIGN_UPS_PER_ADDRESS times; then 429 with Retry-After, on MCP too, and another address is not refused", async () => {
  // Refused inputs do not count: a typo costs nothing.
  expect((await signUp({ ...person("typo"), password: "short" })).status).toBe(422);
  expect((await signUp(person("ada"))).status).toBe(200);
  expect((await signUp(person("grace"))).status).toBe(200);
  // Probing: a taken address counts as a sign-up.
  expect((await signUp({ ...person("ada"), name: "Someone Else" })).status).toBe(409);
  const refused = await signUp(person("edsger"));
  expect(refused.status).toBe(429);
  expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  expect(refused.json.error).toMatchObject({ type: "CONNECTION_RATE_LIMITED", value: { limit: LIMIT, windowMs: 3_600_000 } });
  // A refused probe tells nothing: the taken address gets the same 429.
  expect((await signUp(person("ada"))).status).toBe(429);
  // The MCP tool is the same action, limited by the same address.
  expect(await overMcp("user:create", person("barbara"), {})).toMatchObject({ error: { type: "CONNECTION_RATE_LIMITED" } });
  expect((await signUp(person("edsger"), "127.0.0.2")).status).toBe(200);
});
