import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readAuthLimits } from "../../src/auth/limit-settings";
import { MemoryOAuthStorage } from "../../src/auth/memory-storage";
import { providerConfiguration } from "../../src/auth/provider-configuration";
import { pkcePair, REDIRECT_URI } from "./support/oauth-flow";

type OidcProvider = typeof import("oidc-provider", { with: { "resolution-mode": "import" } });
const { Provider, errors } = require("oidc-provider") as OidcProvider;

const CLIENT_ID = "https://assistant.example/oauth/client.json";
/** The documents the stand-in web serves, by URL: what an assistant publishes about itself. */
const documents = new Map<string, Record<string, unknown>>();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => provider.callback()(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = new Provider(
    base,
    providerConfiguration({
      settings: { jwks: { keys: [{ ...generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" }), alg: "ES256", kid: "k" }] }, cookieSecrets: ["a-cookie-secret-of-at-least-32-characters"], generated: {}, redisPrefix: "", accessTokenTtl: 60, refreshTokenTtl: 600, limits: readAuthLimits({ raw: {} }, 600) },
      storage: new MemoryOAuthStorage(),
      resources: () => [{ url: () => `${base}/mcp`, scopes: [] }],
      sessionAlive: async () => true,
      errors,
      // Documents live at https URLs; these are served from memory instead of the network.
      fetch: async (url) => {
        const document = documents.get(String(url));
        return document ? Response.json(document) : new Response("not found", { status: 404 });
      },
    }),
  );
});
afterAll(() => new Promise((resolve) => server?.close(resolve)));
let provider: InstanceType<OidcProvider["Provider"]>;

function authorizeAs(clientId: string, redirectUri = REDIRECT_URI): Promise<Response> {
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    redirect_uri: redirectUri,
    code_challenge: pkcePair().challenge,
    code_challenge_method: "S256",
    resource: `${base}/mcp`,
  });
  return fetch(`${base}/oauth/authorize?${query}`, { redirect: "manual" });
}

test("a client named by its metadata document's URL is accepted without registering", async () => {
  documents.set(CLIENT_ID, { client_id: CLIENT_ID, client_name: "Assistant", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" });
  const answer = await authorizeAs(CLIENT_ID);
  expect(answer.status).toBe(303);
  expect(answer.headers.get("location")).toMatch(/^\/interaction\//);
});

test("a redirect URI its document does not list is refused on an error page", async () => {
  documents.set(CLIENT_ID, { client_id: CLIENT_ID, client_name: "Assistant", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" });
  const answer = await authorizeAs(CLIENT_ID, "http://127.0.0.1:53682/elsewhere");
  expect(answer.status).toBe(400);
  expect(answer.headers.get("location")).toBeNull();
});

test("a document that cannot be fetched is no client", async () => {
  const answer = await authorizeAs("https://assistant.example/missing.json");
  expect(answer.status).toBe(400);
  expect(await answer.text()).toContain("invalid_client");
});
