import { join } from "node:path";
import { Client, StreamableHTTPClientTransport, type InputRequiredResult } from "@modelcontextprotocol/client";
import { TaskService } from "herald";
import { serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import { rpc, TASKS, type RpcAnswer } from "../transports/mcp/support/raw-rpc";
import { authorize, CookieJar, pkcePair, REDIRECT_URI, registerClient, tokenRequest } from "./support/oauth-flow";

// An app that is its own authorization server, whose sign-in names the user `user-<name>`.
useTestServer({ appDir: join(__dirname, "../fixtures/apps/mcp-ask-oauth"), env: { REDIS_URL: "", LOG_LEVEL: "fatal" } });

const clients: Client[] = [];
afterAll(() => Promise.all(clients.map((client) => client.close())));

/** Signs `name` in for the client, as a browser does, and redeems the code: the token response. */
async function signIn(clientId: string, name: string, scope?: string, jar?: CookieJar): Promise<Record<string, unknown>> {
  const base = serverUrl();
  const { verifier, challenge } = pkcePair();
  const redirect = await authorize({ base, clientId, challenge, credentials: { name }, ...(scope ? { scope } : {}), ...(jar ? { jar } : {}) });
  if (!(redirect instanceof URL)) throw new Error(`no redirect: ${redirect.status} ${await redirect.text()}`);
  const tokens = await tokenRequest(base, { grant_type: "authorization_code", code: redirect.searchParams.get("code")!, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT_URI });
  expect(tokens.status).toBe(200);
  return tokens.body;
}

/** A 2026-07-28 client calling with the token; an input_required result comes back as it is. */
async function clientWith(token: string): Promise<Client> {
  const client = new Client(
    { name: "subject", version: "1.0.0" },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } }, inputRequired: { autoFulfill: false } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

function claimsOf(idToken: unknown): Record<string, unknown> {
  return JSON.parse(Buffer.from(String(idToken).split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
}

test("the ID token's sub is the user's id from the sign-in action, the same at every sign-in", async () => {
  const clientId = await registerClient(serverUrl());
  const first = await signIn(clientId, "alice", "openid mcp");
  const second = await signIn(clientId, "alice", "openid mcp");
  expect(claimsOf(first.id_token).sub).toBe("user-alice");
  expect(claimsOf(second.id_token).sub).toBe("user-alice");
  expect(claimsOf((await signIn(clientId, "bob", "openid mcp")).id_token).sub).toBe("user-bob");
});

test("a token's calls carry the user's id as their subject", async () => {
  const clientId = await registerClient(serverUrl());
  const alice = await clientWith((await signIn(clientId, "alice")).access_token as string);
  const asked = (await alice.callTool({ name: "ask-note", arguments: {} }, { allowInputRequired: true })) as unknown as InputRequiredResult;
  expect(asked.resultType).toBe("input_required");
  const retry = { name: "ask-note", arguments: {}, inputResponses: { note: { action: "accept", content: { text: "hi" } } }, requestState: asked.requestState };
  const answered = await alice.callTool(retry);
  expect(answered.structuredContent).toEqual({ user: "alice", subject: "user-alice", note: "hi" });
});

test("another user of the same client cannot replay a user's requestState; the same user, signed in again, can", async () => {
  const clientId = await registerClient(serverUrl());
  const alice = await clientWith((await signIn(clientId, "alice")).access_token as string);
  const bob = await clientWith((await signIn(clientId, "bob")).access_token as string);
  const asked = (await alice.callTool({ name: "ask-note", arguments: {} }, { allowInputRequired: true })) as unknown as InputRequiredResult;
  const retry = { name: "ask-note", arguments: {}, inputResponses: { note: { action: "accept", content: { text: "from bob" } } }, requestState: asked.requestState };
  await expect(bob.callTool(retry)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Invalid or expired requestState") });
  const aliceAgain = await clientWith((await signIn(clientId, "alice")).access_token as string);
  expect((await aliceAgain.callTool(retry)).structuredContent).toEqual({ user: "alice", subject: "user-alice", note: "from bob" });
});

test("a browser signed in for one client signs in again for another, and that client's token works", async () => {
  const jar = new CookieJar();
  const first = await registerClient(serverUrl());
  const second = await registerClient(serverUrl());
  expect(claimsOf((await signIn(first, "alice", "openid mcp", jar)).id_token).sub).toBe("user-alice");
  const tokens = await signIn(second, "alice", "openid mcp", jar);
  expect(claimsOf(tokens.id_token).sub).toBe("user-alice");
  const alice = await clientWith(tokens.access_token as string);
  const asked = (await alice.callTool({ name: "ask-note", arguments: {} }, { allowInputRequired: true })) as unknown as InputRequiredResult;
  expect(asked.resultType).toBe("input_required");
});

describe("an MCP task's job runs for the caller who created the task", () => {
  const withTasks = (token: string) => ({ capabilities: { extensions: { [TASKS]: {} } }, headers: { authorization: `Bearer ${token}` } });

  /** `tasks/get` with the token until the task has left `working`. */
  async function settled(taskId: string, token: string): Promise<Record<string, any>> {
    let answer: RpcAnswer | undefined;
    await waitFor(async () => (answer = await rpc(`${serverUrl()}/mcp`, "tasks/get", { taskId }, withTasks(token))).result?.status !== "working");
    return answer!.result!;
  }

  test("with its token and its session: a tool only the signed-in may use works as a task", async () => {
    const clientId = await registerClient(serverUrl());
    const token = (await signIn(clientId, "alice")).access_token as string;
    const created = await rpc(`${serverUrl()}/mcp`, "tools/call", { name: "who-task", arguments: {} }, withTasks(token));
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const done = await settled(created.result!.taskId as string, token);
    expect(done.status).toBe("completed");
    expect(done.result.structuredContent).toEqual({ user: "alice", subject: "user-alice", scopes: expect.arrayContaining(["mcp"]), connection: "task" });
  });

  test("a job whose caller's session has ended since runs for a caller who is signed out", async () => {
    const tasks = testServer().container.resolve(TaskService);
    const jobId = await tasks.enqueue("who:task", {}, { retries: 0, caller: { sessionId: "a-session-that-ended" } });
    await waitFor(async () => (await tasks.getJob("who", jobId))?.status === "failed");
    expect((await tasks.getJob("who", jobId))?.error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", message: "Sign in first" });
  });

  test("what inspection shows of such a job holds neither its token nor its session", async () => {
    const clientId = await registerClient(serverUrl());
    const token = (await signIn(clientId, "bob")).access_token as string;
    const created = await rpc(`${serverUrl()}/mcp`, "tools/call", { name: "who-task", arguments: {} }, withTasks(token));
    await settled(created.result!.taskId as string, token);
    const tasks = testServer().container.resolve(TaskService);
    const stats = await tasks.stats("who");
    expect(stats.who!.completed).toBeGreaterThanOrEqual(1);
    const failed = await tasks.failed("who");
    expect(JSON.stringify(failed)).not.toMatch(/sessionId|"auth"|claims/);
  });
});
