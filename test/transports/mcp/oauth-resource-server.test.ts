import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { CryptoKey, JWK } from "jose" with { "resolution-mode": "import" };
import type { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer } from "herald/testing";

const APP = join(__dirname, "../../fixtures/apps/mcp-oauth");
// jose is an ES module; Jest compiles it to CommonJS (jest.config.ts).
const { exportJWK, generateKeyPair, SignJWT } = require("jose") as typeof import("jose", { with: { "resolution-mode": "import" } });

/** A stand-in authorization server: its metadata and its signing keys, as a hosted identity provider serves them. */
let issuerServer: Server;
let issuer: string;
let signingKey: CryptoKey;
let strangerKey: CryptoKey;
let herald: HeraldServer;
let introspecting: HeraldServer;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256");
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair("ES256")).privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: "key-1", alg: "ES256", use: "sig" };
  issuerServer = createServer((request, response) => {
    response.setHeader("Content-Type", "application/json");
    if (request.url === "/.well-known/oauth-authorization-server") {
      response.end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` }));
    } else if (request.url === "/jwks") response.end(JSON.stringify({ keys: [jwk] }));
    else if (request.url === "/introspect" && request.method === "POST") void introspect(request, response);
    else response.writeHead(404).end("{}");
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  herald = await startTestServer({ appDir: APP, env: { MCP_AUTH_ISSUER: issuer, LOG_LEVEL: "fatal" } });
  introspecting = await startTestServer({
    appDir: APP,
    env: {
      MCP_AUTH_ISSUER: issuer,
      MCP_AUTH_INTROSPECTION_URL: `${issuer}/introspect`,
      MCP_AUTH_CLIENT_ID: "herald-rs",
      MCP_AUTH_CLIENT_SECRET: "s3cret",
      LOG_LEVEL: "fatal",
    },
  });
}, HOOK_TIMEOUT);
afterAll(async () => {
  await Promise.all([herald?.stop(), introspecting?.stop()]);
  await new Promise((resolve) => issuerServer?.close(resolve));
}, HOOK_TIMEOUT);

const resource = () => `${herald.url}/mcp`;

/** Opaque tokens the stand-in knows, by value: what RFC 7662 introspection answers for each. */
const OPAQUE: Record<string, (audience: string) => Record<string, unknown>> = {
  "opaque-good": (aud) => ({ active: true, iss: issuer, aud, sub: "user-7", client_id: "cli", scope: "notes:read", exp: Math.floor(Date.now() / 1000) + 300 }),
  "opaque-revoked": () => ({ active: false }),
  "opaque-elsewhere": () => ({ active: true, iss: issuer, aud: "https://elsewhere.example/mcp", scope: "notes:read", exp: Math.floor(Date.now() / 1000) + 300 }),
};

async function introspect(request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse): Promise<void> {
  let body = "";
  for await (const chunk of request) body += chunk;
  const authorized = request.headers.authorization === `Basic ${Buffer.from("herald-rs:s3cret").toString("base64")}`;
  if (!authorized) return void response.writeHead(401).end(JSON.stringify({ error: "invalid_client" }));
  const answer = OPAQUE[new URLSearchParams(body).get("token") ?? ""];
  response.end(JSON.stringify(answer ? answer(`${introspecting.url}/mcp`) : { active: false }));
}

async function token(claims: Record<string, unknown> = {}, options: { key?: CryptoKey; expiresIn?: string; issuer?: string } = {}): Promise<string> {
  return new SignJWT({ scope: "notes:read", client_id: "desk-app", ...claims })
    .setProtectedHeader({ alg: "ES256", kid: "key-1" })
    .setIssuer(options.issuer ?? issuer)
    .setSubject("user-42")
    .setAudience((claims.aud as string | undefined) ?? resource())
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? "5m")
    .sign(options.key ?? signingKey);
}

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(resource(), {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-11-25", ...headers },
    body: JSON.stringify(body),
  });
}
const call = (name: string, id = 1) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });

test("the protected resource metadata names the resource, its authorization server and the scopes actions ask for (RFC 9728)", async () => {
  for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
    const response = await fetch(`${herald.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({
      resource: resource(),
      authorization_servers: [issuer],
      bearer_methods_supported: ["header"],
      scopes_supported: ["notes:read", "notes:write"],
    });
  }
  expect((await fetch(`${herald.url}/.well-known/oauth-protected-resource/elsewhere`)).status).toBe(404);
});

test("a public tool stays callable without a token", async () => {
  const response = await post(call("notes-public"));
  expect(response.status).toBe(200);
  expect(await response.text()).toContain("welcome");
});

test("a tool that needs a scope, called without a token, is 401 with the challenge a client signs in from", async () => {
  const response = await post(call("notes-secret", 7));
  expect(response.status).toBe(401);
  const challenge = response.headers.get("www-authenticate")!;
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain(`resource_metadata="${herald.url}/.well-known/oauth-protected-resource/mcp"`);
  expect(challenge).toContain('scope="notes:read"');
  // RFC 6750 §3.1: a request that carried no token gets no error code, only where to sign in.
  expect(challenge).not.toMatch(/error=|error_description=/);
});

test("a tool the app's middleware keeps for signed-in callers, called without a token, is 401 too, so the client signs in", async () => {
  const refused = await post(call("notes-mine", 3));
  expect(refused.status).toBe(401);
  expect(refused.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${herald.url}/.well-known/oauth-protected-resource/mcp"`);
  expect(await refused.json()).toMatchObject({ error: "invalid_token", error_description: "Sign in to call notes-mine" });
  const allowed = await post(call("notes-mine", 4), { Authorization: `Bearer ${await token()}` });
  expect(allowed.status).toBe(200);
  expect(await allowed.text()).toContain('\\"owner\\":\\"user-42\\"');
});

test("asking for progress, the same refusal is a tool error result: its stream may have begun before the result", async () => {
  const response = await post({ ...call("notes-mine", 5), params: { name: "notes-mine", arguments: {}, _meta: { progressToken: "p" } } });
  expect(response.status).toBe(200);
  expect(await response.text()).toContain("CONNECTION_NOT_AUTHENTICATED");
});

test("a valid token reaches the action as connection.auth: subject, client and scopes", async () => {
  const response = await post(call("notes-secret"), { Authorization: `Bearer ${await token()}` });
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text).toContain('\\"subject\\":\\"user-42\\"');
  expect(text).toContain('\\"clientId\\":\\"desk-app\\"');
});

test("a token without a tool's scope is 403 insufficient_scope, naming the scopes to step up to", async () => {
  const response = await post(call("notes-write"), { Authorization: `Bearer ${await token()}` });
  expect(response.status).toBe(403);
  const challenge = response.headers.get("www-authenticate")!;
  expect(challenge).toContain('error="insufficient_scope"');
  expect(challenge).toContain('scope="notes:read notes:write"');
});

test("a batch (of 2025-03-26, the one revision with batches) cannot carry a scoped call past the check", async () => {
  const response = await post([call("notes-public", 1), call("notes-write", 2)], { Authorization: `Bearer ${await token()}`, "Mcp-Protocol-Version": "2025-03-26" });
  expect(response.status).toBe(403);
});

test.each([
  ["expired", () => token({}, { expiresIn: "-1m" })],
  ["for another audience (RFC 8707)", () => token({ aud: "https://elsewhere.example/mcp" })],
  ["signed by another key", () => token({}, { key: strangerKey })],
  ["from another issuer", () => token({}, { issuer: "https://impostor.example" })],
  ["not a token at all", async () => "garbage"],
])("a token %s is 401 invalid_token, even for a public tool", async (_name, make) => {
  const response = await post(call("notes-public"), { Authorization: `Bearer ${await make()}` });
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
  expect(await response.json()).toMatchObject({ error: "invalid_token" });
});

test("the v2 client with a valid token calls the scoped tool; without one it learns it must sign in", async () => {
  const signedIn = new Client({ name: "signed-in", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await signedIn.connect(
    new StreamableHTTPClientTransport(new URL(resource()), { requestInit: { headers: { Authorization: `Bearer ${await token()}` } } }),
  );
  try {
    const result = await signedIn.callTool({ name: "notes-secret", arguments: {} });
    expect(result.structuredContent).toMatchObject({ subject: "user-42", scopes: ["notes:read"] });
  } finally {
    await signedIn.close();
  }
  const anonymous = new Client({ name: "anonymous", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await anonymous.connect(new StreamableHTTPClientTransport(new URL(resource())));
  try {
    expect((await anonymous.callTool({ name: "notes-public", arguments: {} })).isError).toBeFalsy();
    await expect(anonymous.callTool({ name: "notes-secret", arguments: {} })).rejects.toThrow(/401|Unauthorized|sign in/i);
    // Refused by the app's middleware rather than by a scope: on the 2026-07-28 protocol too.
    await expect(anonymous.callTool({ name: "notes-mine", arguments: {} })).rejects.toThrow(/401|Unauthorized|sign in/i);
  } finally {
    await anonymous.close();
  }
});

describe("opaque tokens, by introspection (RFC 7662)", () => {
  const postTo = (body: unknown, authorization: string) =>
    fetch(`${introspecting.url}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-11-25", Authorization: authorization },
      body: JSON.stringify(body),
    });

  test("an active token for this resource is accepted, its subject on the connection", async () => {
    const response = await postTo(call("notes-secret"), "Bearer opaque-good");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('\\"subject\\":\\"user-7\\"');
  });

  test.each(["opaque-revoked", "opaque-elsewhere", "opaque-unknown"])("%s is 401 invalid_token", async (opaque) => {
    const response = await postTo(call("notes-public"), `Bearer ${opaque}`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });
});

test("an introspection endpoint without this server's credentials stops the boot", async () => {
  await expect(startTestServer({ appDir: APP, env: { MCP_AUTH_ISSUER: issuer, MCP_AUTH_INTROSPECTION_URL: `${issuer}/introspect`, LOG_LEVEL: "fatal" } })).rejects.toThrow(
    "MCP_AUTH_INTROSPECTION_URL needs MCP_AUTH_CLIENT_ID and MCP_AUTH_CLIENT_SECRET",
  );
});
