import { auth, Client, StreamableHTTPClientTransport, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { auth as authV1 } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientProvider as OAuthClientProviderV1 } from "@modelcontextprotocol/sdk/client/auth.js";
import { serverUrl, useTestServer } from "herald/testing";
import { useChromium } from "../support/chromium";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { createUser, SAMPLE_APP } from "../sample-app/support/app";
import { callTool, tokenRequest } from "./support/oauth-flow";
import { MemoryClientProvider, signInWithBrowser } from "./support/memory-client-provider";

const postgres = usePostgresSchema("auth_mcp_clients");
const { prefix } = useTestRedis("auth-mcp-clients");
// Sessions and the authorization server's records in Redis, under this file's own NAME, which the prefix's keys are deleted with.
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, REDIS_URL: TEST_REDIS_URL, NAME: prefix.slice(0, -1), LOG_LEVEL: "fatal" } });
const browser = useChromium();

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
beforeAll(() => createUser(ada));

const mcpUrl = () => new URL(`${serverUrl()}/mcp`);

async function sessionViewEmail(client: { callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown> }): Promise<unknown> {
  const result = (await client.callTool({ name: "session-view", arguments: {} })) as { isError?: boolean; structuredContent?: { user?: { email?: string } } };
  expect(result.isError).toBeFalsy();
  return result.structuredContent?.user?.email;
}

test("before signing in, the sign-in-only tool is a 401 naming the resource metadata", async () => {
  const answer = await callTool(serverUrl(), "session-view");
  expect(answer.status).toBe(401);
  expect(answer.headers.get("www-authenticate")).toContain(`resource_metadata="${serverUrl()}/.well-known/oauth-protected-resource/mcp"`);
  const metadata = (await (await fetch(`${serverUrl()}/.well-known/oauth-protected-resource/mcp`)).json()) as { authorization_servers: string[] };
  expect(metadata.authorization_servers).toEqual([new URL(serverUrl()).origin]);
});

test("the v2 SDK client signs in, calls a sign-in-only tool, refreshes its token and has it revoked", async () => {
  const provider = new MemoryClientProvider("Assistant v2");
  const oauth = provider as unknown as OAuthClientProvider;
  await expect(auth(oauth, { serverUrl: mcpUrl() })).resolves.toBe("REDIRECT");
  expect(provider.clientInfo?.client_id).toEqual(expect.any(String));
  const callback = await signInWithBrowser(browser(), provider.authorizationUrl!, ada, "Assistant v2");
  const code = callback.searchParams.get("code")!;
  expect(callback.searchParams.get("iss")).toBe(new URL(serverUrl()).origin);
  await expect(auth(oauth, { serverUrl: mcpUrl(), authorizationCode: code, iss: callback.searchParams.get("iss")! })).resolves.toBe("AUTHORIZED");
  const first = provider.saved as { access_token: string; refresh_token: string };

  const client = new Client({ name: "herald-auth-v2", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: oauth }));
  try {
    await expect(sessionViewEmail(client)).resolves.toBe(ada.email);
  } finally {
    await client.close();
  }

  // A second auth() with tokens at hand refreshes them; the refresh token rotates.
  await expect(auth(oauth, { serverUrl: mcpUrl(), forceReauthorization: false })).resolves.toBe("AUTHORIZED");
  const second = provider.saved as { access_token: string; refresh_token: string };
  expect(second.refresh_token).not.toBe(first.refresh_token);
  expect((await callTool(serverUrl(), "session-view", second.access_token)).status).toBe(200);
  const reused = await tokenRequest(serverUrl(), { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: String(provider.clientInfo!.client_id) });
  expect(reused).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_grant" }) });
  // Reusing a rotated-away refresh token revokes the whole grant.
  expect((await callTool(serverUrl(), "session-view", second.access_token)).status).toBe(401);
});

test("the v1 SDK client signs in, calls a sign-in-only tool, and its revoked token is refused", async () => {
  const provider = new MemoryClientProvider("Assistant v1");
  const oauth = provider as unknown as OAuthClientProviderV1;
  await expect(authV1(oauth, { serverUrl: mcpUrl() })).resolves.toBe("REDIRECT");
  const callback = await signInWithBrowser(browser(), provider.authorizationUrl!, ada, "Assistant v1");
  await expect(authV1(oauth, { serverUrl: mcpUrl(), authorizationCode: callback.searchParams.get("code")! })).resolves.toBe("AUTHORIZED");
  const tokens = provider.saved as { access_token: string; refresh_token: string };

  const client = new ClientV1({ name: "herald-auth-v1", version: "1.0.0" });
  await client.connect(new TransportV1(mcpUrl(), { authProvider: oauth }));
  try {
    await expect(sessionViewEmail(client)).resolves.toBe(ada.email);
  } finally {
    await client.close();
  }

  const refreshed = await tokenRequest(serverUrl(), { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: String(provider.clientInfo!.client_id) });
  expect(refreshed.status).toBe(200);
  const token = refreshed.body.access_token as string;
  const revoked = await fetch(`${serverUrl()}/oauth/revoke`, { method: "POST", body: new URLSearchParams({ token, client_id: String(provider.clientInfo!.client_id) }) });
  expect(revoked.status).toBe(200);
  const answer = await callTool(serverUrl(), "session-view", token);
  expect(answer.status).toBe(401);
  expect(answer.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
});
