import { readFileSync } from "node:fs";
import { globalAgent, createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import type { HeraldServer } from "herald";
import { serverUrl, startTestServer, useTestServer } from "herald/testing";
import { useSelfSignedCertificate } from "../support/self-signed-certificate";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { SAMPLE_APP } from "../sample-app/support/app";
import { pkcePair, REDIRECT_URI } from "./support/oauth-flow";

const postgres = usePostgresSchema("auth_metadata_fetch");
const env = { DATABASE_URL: postgres.url, REDIS_URL: "", LOG_LEVEL: "fatal" };
// The default: no host is allowed, so loopback is refused like any special-use address.
useTestServer({ appDir: SAMPLE_APP, env });

const warnings = jest.spyOn(console, "warn");
afterAll(() => {
  expect(warnings.mock.calls.flat().join("\n")).not.toContain("SSRF");
  warnings.mockRestore();
});

function authorizeAs(base: string, clientId: string): Promise<Response> {
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    code_challenge: pkcePair().challenge,
    code_challenge_method: "S256",
    resource: `${base}/mcp`,
  });
  return fetch(`${base}/oauth/authorize?${query}`, { redirect: "manual" });
}

describe("a client ID on a special-use address", () => {
  /** A port that records every connection made to it, and answers none. */
  let listener: Server;
  let connections = 0;
  beforeAll(async () => {
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise((resolve) => listener.close(resolve)));
  const port = () => (listener.address() as AddressInfo).port;

  test.each([
    ["a loopback address", () => `https://127.0.0.1:${port()}/client.json`],
    ["a name that resolves to loopback", () => `https://localhost:${port()}/client.json`],
    ["an IPv4-mapped loopback address", () => `https://[::ffff:127.0.0.1]:${port()}/client.json`],
    ["a private address", () => "https://10.0.0.1/client.json"],
    ["a link-local address", () => "https://169.254.169.254/latest/meta-data.json"],
  ])("is refused before any connection: %s", async (_case, clientId) => {
    const answer = await authorizeAs(serverUrl(), clientId());
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("invalid_client");
    expect(connections).toBe(0);
  });
});

describe("with OAUTH_CLIENT_METADATA_ALLOWED_HOSTS naming the host", () => {
  const certificate = useSelfSignedCertificate();
  let documents: HttpsServer;
  let server: HeraldServer;
  const requested: string[] = [];
  let origin: string;
  let trustedBefore: { had: boolean; ca: unknown };

  beforeAll(async () => {
    const [cert, key] = [readFileSync(certificate.certFile), readFileSync(certificate.keyFile)];
    documents = createHttpsServer({ cert, key }, (request, response) => {
      requested.push(request.url!);
      const clientId = `${origin}${request.url}`;
      if (request.url !== "/client.json") return void response.writeHead(404).end();
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ client_id: clientId, client_name: "Local assistant", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }));
    });
    await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
    origin = `https://127.0.0.1:${(documents.address() as AddressInfo).port}`;
    // The test's own certificate authority, for this process's HTTPS requests.
    trustedBefore = { had: "ca" in globalAgent.options, ca: globalAgent.options.ca };
    globalAgent.options.ca = cert;
    server = await startTestServer({ appDir: SAMPLE_APP, env: { ...env, OAUTH_CLIENT_METADATA_ALLOWED_HOSTS: "127.0.0.1" } });
  });
  afterAll(async () => {
    // The agent's options override every request's, a `ca: undefined` included: a key it did not have is removed, not emptied.
    if (trustedBefore.had) globalAgent.options.ca = trustedBefore.ca as never;
    else delete globalAgent.options.ca;
    await server?.stop();
    await new Promise((resolve) => documents?.close(resolve));
  });

  test("its document is fetched and names the client", async () => {
    const answer = await authorizeAs(server.url!, `${origin}/client.json`);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(/^\/interaction\//);
    expect(requested).toContain("/client.json");
  });

  test("a document that failed is not fetched again for a while", async () => {
    const missing = `${origin}/missing.json`;
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await authorizeAs(server.url!, missing);
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain("invalid_client");
    }
    expect(requested.filter((path) => path === "/missing.json")).toEqual(["/missing.json"]);
  });
});

test("the process's HTTPS agent is left as it was: its options override those of every later request in the process", () => {
  expect("ca" in globalAgent.options).toBe(false);
});
