import { auth, Client, StreamableHTTPClientTransport, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { waitFor } from "herald/testing";
import { MemoryClientProvider, signInWithBrowser } from "../auth/support/memory-client-provider";
import { useChromium } from "../support/chromium";
import { call } from "../reliability/support/http";
import { useTopology } from "./support/topology";

/**
 * The sample app's built-in authorization server on the topology of docs/deployment.md: an MCP
 * client registers, its user signs in in a browser, it redeems the code and calls a sign-in-only
 * tool, each step landing on whichever of the three web processes the balancer picks.
 */
const topology = useTopology("oauth");
const browser = useChromium();

test("an MCP client signs in with OAuth through the balancer, its steps on different processes, and calls a sign-in-only tool", async () => {
  const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
  expect((await call(`${topology.url}/api/user`, { method: "PUT", body: ada })).status).toBe(200);
  const mcpUrl = new URL(`${topology.url}/mcp`);
  const provider = new MemoryClientProvider("Assistant behind a balancer");
  const oauth = provider as unknown as OAuthClientProvider;

  await expect(auth(oauth, { serverUrl: mcpUrl })).resolves.toBe("REDIRECT");
  const callback = await signInWithBrowser(browser(), provider.authorizationUrl!, ada, "Assistant behind a balancer");
  const code = callback.searchParams.get("code")!;
  await expect(auth(oauth, { serverUrl: mcpUrl, authorizationCode: code, iss: callback.searchParams.get("iss")! })).resolves.toBe("AUTHORIZED");

  const client = new Client({ name: "topology-oauth", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth }));
  try {
    for (let i = 0; i < 3; i++) {
      const result = (await client.callTool({ name: "session-view", arguments: {} })) as { structuredContent?: { user?: { email?: string } } };
      expect(result.structuredContent?.user?.email).toBe(ada.email);
    }
  } finally {
    await client.close();
  }
  // Registration, the authorization request, the sign-in and consent pages and the token request
  // went through /oauth on more than one process; the token was honoured by more than one.
  const served = (matches: (line: Record<string, any>) => boolean) => topology.web.filter((web) => web.logs.some(matches)).length;
  await waitFor(() => served((line) => line.msg === "request" && String(line.path).startsWith("/oauth")) > 1);
  await waitFor(() => served((line) => line.msg === "action" && line.action === "session:view" && line.connection === "mcp") > 1);
});
