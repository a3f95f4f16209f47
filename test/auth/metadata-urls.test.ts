import { generateKeyPairSync } from "node:crypto";
import { request } from "node:http";
import { auth, Client, StreamableHTTPClientTransport, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { auth as authV1, type OAuthClientProvider as OAuthClientProviderV1 } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { HeraldServer } from "herald";
import { serverUrl, startTestServer, useTestServer } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { createUser, SAMPLE_APP } from "../sample-app/support/app";
import { MemoryClientProvider } from "./support/memory-client-provider";
import { signInAt } from "./support/oauth-flow";

const postgres = usePostgresSchema("auth_metadata_urls");
const env = { DATABASE_URL: postgres.url, REDIS_URL: "", LOG_LEVEL: "fatal" };
useTestServer({ appDir: SAMPLE_APP, env });

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
beforeAll(() => createUser(ada).then(() => undefined));

/** A GET with the headers a caller chose, `Host` included (fetch would not send that one). */
function getWithHeaders(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    })
      .on("error", reject)
      .end();
  });
}

describe("in production", () => {
  let server: HeraldServer;
  const PUBLIC_URL = "https://notes.example.com";
  beforeAll(async () => {
    const jwk = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
    server = await startTestServer({
      appDir: SAMPLE_APP,
      env: {
        ...env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PUBLIC_URL,
        SESSION_SECRET: "a-session-secret-of-at-least-32-characters",
        OAUTH_JWKS: JSON.stringify({ keys: [{ ...jwk, kid: "k", alg: "ES256", use: "sig" }] }),
        OAUTH_COOKIE_SECRETS: "an-oauth-cookie-secret-of-32-characters-or-more",
        HTTP_TRUST_PROXY: "loopback",
      },
    });
  });
  afterAll(() => server?.stop());

  test.each(["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"])(
    "%s names PUBLIC_URL's endpoints whatever Host the request names, and may be cached",
    async (path) => {
      const answer = await getWithHeaders(`${server.url}${path}`, { Host: "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http" });
      expect(answer.status).toBe(200);
      const metadata = JSON.parse(answer.body) as Record<string, unknown>;
      expect(metadata.issuer).toBe(PUBLIC_URL);
      for (const name of ["authorization_endpoint", "token_endpoint", "registration_endpoint", "revocation_endpoint", "jwks_uri"]) {
        expect(String(metadata[name])).toMatch(new RegExp(`^${PUBLIC_URL}/oauth/`));
      }
      expect(answer.body).not.toContain("evil.example");
      expect(answer.headers["cache-control"]).toMatch(/max-age=\d+/);
    },
  );

  test("the protected resource metadata names PUBLIC_URL's resource, and may be cached", async () => {
    const answer = await getWithHeaders(`${server.url}/.well-known/oauth-protected-resource/mcp`, { Host: "localhost" });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ resource: `${PUBLIC_URL}/mcp`, authorization_servers: [PUBLIC_URL] });
    expect(answer.headers["cache-control"]).toMatch(/max-age=\d+/);
  });
});

describe("in development, an MCP client set up with any loopback spelling signs in and calls", () => {
  const spellings = () => {
    const port = new URL(serverUrl()).port;
    return [`http://localhost:${port}/mcp`, `http://127.0.0.1:${port}/mcp`];
  };

  test.each([0, 1])("the v2 SDK client (spelling %i)", async (index) => {
    const mcpUrl = new URL(spellings()[index]!);
    const provider = new MemoryClientProvider("Assistant v2");
    const oauth = provider as unknown as OAuthClientProvider;
    await expect(auth(oauth, { serverUrl: mcpUrl })).resolves.toBe("REDIRECT");
    const callback = await signInAt(provider.authorizationUrl!, { email: ada.email, password: ada.password });
    await expect(auth(oauth, { serverUrl: mcpUrl, authorizationCode: callback.searchParams.get("code")!, iss: callback.searchParams.get("iss")! })).resolves.toBe("AUTHORIZED");
    const client = new Client({ name: "loopback-v2", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth }));
    try {
      const result = (await client.callTool({ name: "session-view", arguments: {} })) as { structuredContent?: { user?: { email?: string } } };
      expect(result.structuredContent?.user?.email).toBe(ada.email);
    } finally {
      await client.close();
    }
  });

  test.each([0, 1])("the v1 SDK client (spelling %i)", async (index) => {
    const mcpUrl = new URL(spellings()[index]!);
    const provider = new MemoryClientProvider("Assistant v1");
    const oauth = provider as unknown as OAuthClientProviderV1;
    await expect(authV1(oauth, { serverUrl: mcpUrl })).resolves.toBe("REDIRECT");
    const callback = await signInAt(provider.authorizationUrl!, { email: ada.email, password: ada.password });
    await expect(authV1(oauth, { serverUrl: mcpUrl, authorizationCode: callback.searchParams.get("code")! })).resolves.toBe("AUTHORIZED");
    const client = new ClientV1({ name: "loopback-v1", version: "1.0.0" });
    await client.connect(new TransportV1(mcpUrl, { authProvider: oauth }));
    try {
      const result = (await client.callTool({ name: "session-view", arguments: {} })) as { structuredContent?: { user?: { email?: string } } };
      expect(result.structuredContent?.user?.email).toBe(ada.email);
    } finally {
      await client.close();
    }
  });
});
