import { serverUrl, useTestServer } from "herald/testing";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { SAMPLE_APP } from "../sample-app/support/app";
import { pkcePair, REDIRECT_URI, registerClient } from "./support/oauth-flow";

const postgres = usePostgresSchema("auth_authorization_limits");
const { prefix, redis } = useTestRedis("auth-authorization-limits");
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
    OAUTH_AUTHORIZATIONS_PER_ADDRESS: "3",
    OAUTH_AUTHORIZATIONS_IN_FLIGHT: "5",
  },
});

let clientId: string;
beforeAll(async () => {
  clientId = await registerClient(serverUrl());
});

function startSignIn(address: string): Promise<Response> {
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    code_challenge: pkcePair().challenge,
    code_challenge_method: "S256",
  });
  return fetch(`${serverUrl()}/oauth/authorize?${query}`, { redirect: "manual", headers: { "X-Forwarded-For": address } });
}

async function storedInteractions(): Promise<number> {
  let count = 0;
  for await (const batch of redis.scanStream({ match: `${name}:oauth:Interaction:*`, count: 500 })) count += (batch as string[]).length;
  return count;
}

test("an address starts its budget of sign-ins, then 429 on a page; all addresses stop at the bound in flight, 503; nothing more is stored", async () => {
  // Addresses of one IPv6 /64 are one caller: one host is routinely given the whole /64.
  const started: number[] = [];
  for (let at = 0; at < 3; at++) started.push((await startSignIn(`2001:db8:5::${at + 1}`)).status);
  expect(started).toEqual([303, 303, 303]);
  const refused = await startSignIn("2001:db8:5::ffff");
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(refused.headers.get("location")).toBeNull();
  expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
  expect(await refused.text()).toContain("from this address");

  expect((await startSignIn("203.0.113.2")).status).toBe(303);
  expect((await startSignIn("203.0.113.3")).status).toBe(303);
  expect(await storedInteractions()).toBe(5);

  // A flood from many addresses past the bound: every one refused with a page, none stored, none a server error.
  const flood = await Promise.all(Array.from({ length: 40 }, (_, at) => startSignIn(`203.0.113.${10 + at}`)));
  expect(new Set(flood.map((answer) => answer.status))).toEqual(new Set([503]));
  expect(flood.every((answer) => Number(answer.headers.get("retry-after")) > 0 && answer.headers.get("location") === null)).toBe(true);
  expect(await storedInteractions()).toBe(5);
  expect((await fetch(`${serverUrl()}/api/status`)).status).toBe(200);
});
