import { HOOK_TIMEOUT, serverUrl, testServer, useTestServer } from "herald/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Message } from "../../sample-app/entities/message";
import { User } from "../../sample-app/entities/user";
import { hashPassword } from "../../sample-app/lib/passwords";
import { RequireSignIn } from "../../sample-app/middleware/require-sign-in";
import { usePostgresSchema } from "./support/postgres";
import { database, SAMPLE_APP, truncateAll } from "./support/app";
import { asTask, overCli, overHttp, overMcp, overWebSocket, type Caller, type Outcome, type Transport } from "./support/transports";

/**
 * The parity table: each row is one call of a sample action, made over every transport it
 * qualifies for, each time on the same freshly seeded data; every transport must give the
 * same response. A row's caller is signed in (a session cookie, which only HTTP and WebSocket
 * carry), or not.
 */

const ADMIN_API_KEY = "parity-admin-key-of-at-least-32-characters";
const postgres = usePostgresSchema("sample_parity");
// The server runs every transport, with task workers; the CLI runs in child processes on the same schema.
// Ada signs in for every case on every transport: far past the sign-in limits, which
// test/sample-app/account-protection.test.ts tests.
const UNLIMITED_SIGN_INS = { PASSWORD_FAILURES_PER_ACCOUNT: "1000000", SIGN_IN_FAILURES_PER_ADDRESS: "1000000" };
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, ADMIN_API_KEY, ...UNLIMITED_SIGN_INS } });

const ADA = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
const GRACE = { name: "Grace Hopper", email: "grace@example.com", password: "compile this" };
const T = "<timestamp>";
const adaSelf = { id: 1, name: "Ada Lovelace", email: "ada@example.com", created_at: T, updated_at: T };
const notSignedIn = { error: { message: "Sign in first", type: "CONNECTION_NOT_AUTHENTICATED" } };

interface Row {
  title: string;
  action: string;
  params: Record<string, unknown>;
  /** "ada": signed in as Ada. */
  as?: "ada";
  on: Transport[];
  expected: Outcome;
}

const WEB: Transport[] = ["http", "websocket"];
const EVERY_CALLER: Transport[] = ["http", "websocket", "cli", "mcp"];

const rows: Row[] = [
  {
    title: "user:create signs a new user up",
    action: "user:create",
    params: { name: "Edsger Dijkstra", email: "EWD@example.com", password: "goto considered" },
    on: EVERY_CALLER,
    expected: { response: { user: { id: 3, name: "Edsger Dijkstra", email: "ewd@example.com", created_at: T, updated_at: T } } },
  },
  {
    title: "user:create refuses a taken e-mail address",
    action: "user:create",
    params: { name: "Ada Again", email: "ada@example.com", password: "analytical engine" },
    on: EVERY_CALLER,
    expected: { error: { message: "A user with this e-mail address already exists", type: "CONNECTION_CONFLICT", key: "email" } },
  },
  {
    title: "user:create refuses a short password without echoing it",
    action: "user:create",
    params: { name: "Edsger Dijkstra", email: "ewd@example.com", password: "short" },
    on: EVERY_CALLER,
    expected: {
      error: {
        message: 'Invalid value for "password": Too small: expected string to have >=8 characters',
        type: "CONNECTION_ACTION_PARAM_VALIDATION",
        key: "password",
        issues: [{ path: ["password"], message: "Too small: expected string to have >=8 characters", code: "too_small" }],
      },
    },
  },
  {
    title: "session:create signs in",
    action: "session:create",
    params: { email: "ADA@example.com", password: ADA.password },
    on: WEB,
    expected: { response: { user: adaSelf } },
  },
  {
    title: "session:create refuses to sign in where no session is kept",
    action: "session:create",
    params: { email: ADA.email, password: ADA.password },
    // HTTP and WebSocket connections always have a session; the CLI's never does.
    on: ["cli"],
    expected: { error: { message: "Signing in needs a session cookie: use HTTP or WebSocket", type: "CONNECTION_SESSION_NOT_FOUND" } },
  },
  {
    title: "session:create refuses a wrong password",
    action: "session:create",
    params: { email: ADA.email, password: "not the password" },
    on: WEB,
    expected: { error: { message: "Wrong e-mail address or password", type: "CONNECTION_NOT_AUTHENTICATED" } },
  },
  { title: "session:view shows the signed-in user", action: "session:view", params: {}, as: "ada", on: WEB, expected: { response: { user: adaSelf } } },
  { title: "session:view refuses a caller who is not signed in", action: "session:view", params: {}, on: ["http", "websocket", "cli"], expected: notSignedIn },
  { title: "session:destroy signs out", action: "session:destroy", params: {}, as: "ada", on: WEB, expected: { response: { signedOut: true } } },
  {
    title: "session:destroy without a session is not an error",
    action: "session:destroy",
    params: {},
    on: ["http", "websocket", "cli"],
    expected: { response: { signedOut: true } },
  },
  { title: "user:view shows your own e-mail address", action: "user:view", params: { user: 1 }, as: "ada", on: WEB, expected: { response: { user: adaSelf } } },
  {
    title: "user:view hides another user's e-mail address",
    action: "user:view",
    params: { user: 2 },
    as: "ada",
    on: WEB,
    expected: { response: { user: { id: 2, name: "Grace Hopper", created_at: T, updated_at: T } } },
  },
  { title: "user:view refuses a caller who is not signed in", action: "user:view", params: { user: 2 }, on: ["http", "websocket", "cli"], expected: notSignedIn },
  {
    title: "user:view names a missing user",
    action: "user:view",
    params: { user: 99 },
    as: "ada",
    on: WEB,
    expected: { error: { message: "User 99 not found", type: "CONNECTION_NOT_FOUND", value: 99 } },
  },
  {
    title: "user:edit changes the signed-in user",
    action: "user:edit",
    params: { name: "Countess Lovelace" },
    as: "ada",
    on: WEB,
    expected: { response: { user: { ...adaSelf, name: "Countess Lovelace" } } },
  },
  {
    title: "user:edit refuses another user's e-mail address",
    action: "user:edit",
    params: { email: "grace@example.com" },
    as: "ada",
    on: WEB,
    expected: { error: { message: "A user with this e-mail address already exists", type: "CONNECTION_CONFLICT", key: "email" } },
  },
  { title: "user:edit refuses a caller who is not signed in", action: "user:edit", params: { name: "Mallory" }, on: ["http", "websocket", "cli"], expected: notSignedIn },
  {
    title: "message:create posts as the signed-in user",
    action: "message:create",
    params: { body: "  Hello, world  " },
    as: "ada",
    on: WEB,
    expected: { response: { message: { id: 3, body: "Hello, world", user_id: 1, created_at: T, updated_at: T } } },
  },
  { title: "message:create refuses a caller who is not signed in", action: "message:create", params: { body: "Hi" }, on: ["http", "websocket", "cli"], expected: notSignedIn },
  {
    title: "messages:list pages newest first",
    action: "messages:list",
    params: { page: 2, limit: 1 },
    on: EVERY_CALLER,
    expected: {
      response: { messages: [{ id: 1, body: "an old one", user_name: "Ada Lovelace" }], pagination: { page: 2, limit: 1, total: 2, pages: 2 } },
    },
  },
  {
    title: "messages:list refuses a page size over 50",
    action: "messages:list",
    params: { limit: 51 },
    on: EVERY_CALLER,
    expected: {
      error: {
        message: 'Invalid value for "limit": limit must be at most 50',
        type: "CONNECTION_ACTION_PARAM_VALIDATION",
        key: "limit",
        value: 51,
        issues: [{ path: ["limit"], message: "limit must be at most 50", code: "too_big" }],
      },
    },
  },
  {
    title: "messages:export answers every message as CSV, oldest first",
    action: "messages:export",
    params: {},
    on: ["http", "websocket", "cli", "task", "mcp"],
    expected: {
      response: {
        count: 2,
        // The seed's timestamps differ from one call to the next.
        csv: expect.stringMatching(/^id,author,body,created_at\n1,"Ada Lovelace","an old one",\S+Z\n2,"Grace Hopper","a new one",\S+Z\n$/) as unknown as string,
      },
    },
  },
  {
    title: "exports:start queues an export, and answers the handle its caller watches it with",
    action: "exports:start",
    params: {},
    on: ["http", "websocket"],
    expected: { response: { jobId: expect.any(String) as unknown as string, queue: "exports", handle: expect.any(String) as unknown as string } },
  },
  {
    title: "messages:cleanup deletes the old messages, for the CLI and the task worker",
    action: "messages:cleanup",
    params: { age: 3_600_000 },
    on: ["cli", "task"],
    expected: { response: { messagesDeleted: 1 } },
  },
];

let passwordHashes: { ada: string; grace: string };
beforeAll(async () => {
  passwordHashes = { ada: await hashPassword(ADA.password), grace: await hashPassword(GRACE.password) };
});

/** Ada (id 1) and Grace (id 2); Ada's message (id 1) is two hours old, Grace's (id 2) new. */
async function seed(): Promise<void> {
  await truncateAll();
  await database()
    .getRepository(User)
    .insert([
      { name: ADA.name, email: ADA.email, password_hash: passwordHashes.ada },
      { name: GRACE.name, email: GRACE.email, password_hash: passwordHashes.grace },
    ]);
  await database()
    .getRepository(Message)
    .insert([
      { body: "an old one", user_id: 1 },
      { body: "a new one", user_id: 2 },
    ]);
  await database().query(`UPDATE "messages" SET "created_at" = now() - interval '2 hours' WHERE "id" = 1`);
}

/** Signs Ada in over HTTP, as the chat page does, and returns her session cookie. */
async function adaCookie(): Promise<string> {
  const response = await fetch(`${serverUrl()}/api/session`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADA.email, password: ADA.password }),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

async function callerFor(row: Row): Promise<Caller> {
  if (row.as === "ada") return { cookie: await adaCookie() };
  return {};
}

async function callOver(transport: Transport, row: Row): Promise<Outcome> {
  await seed();
  const caller = await callerFor(row);
  switch (transport) {
    case "http":
      return overHttp(row.action, row.params, caller);
    case "websocket":
      return overWebSocket(row.action, row.params, caller);
    case "cli":
      // The CLI has no cookie and no headers; it is trusted with the admin actions, as the workers are.
      return overCli(row.action, row.params, {}, { DATABASE_URL: postgres.url, ADMIN_API_KEY });
    case "task":
      return asTask(row.action, row.params);
    case "mcp":
      return overMcp(row.action, row.params, caller);
  }
}

describe("every sample action gives the same response on every transport", () => {
  test.each(rows.map((row) => [row.title, row] as const))(
    "%s",
    async (_title, row) => {
      const outcomes: Partial<Record<Transport, Outcome>> = {};
      for (const transport of row.on) outcomes[transport] = await callOver(transport, row);
      expect(outcomes).toEqual(Object.fromEntries(row.on.map((transport) => [transport, row.expected])));
    },
    HOOK_TIMEOUT,
  );
});

describe("the table", () => {
  /** The transports an action is served on: its `transports`, and its `web`, `task` and `mcp` members. */
  function qualifyingTransports(name: string): Transport[] {
    const action = testServer().registry.get(name)!.action;
    const allowed = (transport: Transport) => !action.transports || action.transports.includes(transport === "http" ? "web" : transport);
    return (["http", "websocket", "cli", "task", "mcp"] as const).filter(
      (transport) =>
        allowed(transport) &&
        (transport !== "http" || action.web !== undefined) &&
        (transport !== "task" || action.task !== undefined) &&
        (transport !== "mcp" || action.mcp?.tool !== false) &&
        // Over MCP a sign-in is an OAuth grant: test/auth/ covers the sign-in-only tools there.
        (transport !== "mcp" || !action.middleware?.includes(RequireSignIn)),
    );
  }

  test("covers every sample action on every transport it qualifies for", () => {
    // Herald's own (status, tasks:watch) are tested where they are built.
    const sampleActions = testServer()
      .registry.list()
      .filter((entry) => !entry.builtin)
      .map((entry) => entry.action.name)
      .sort();
    expect(sampleActions).toEqual([...new Set(rows.map((row) => row.action))].sort());
    for (const name of sampleActions) {
      const covered = new Set(rows.filter((row) => row.action === name).flatMap((row) => row.on));
      expect({ [name]: [...covered].sort() }).toEqual({ [name]: qualifyingTransports(name).sort() });
    }
  });

  test("MCP lists as tools exactly the actions that MCP may call: session-view needs a sign-in, through OAuth", async () => {
    const client = new Client({ name: "herald-parity", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["messages-export", "messages-list", "session-view", "status", "user-create"]);
    } finally {
      await client.close();
    }
  });
});
