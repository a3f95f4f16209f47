import { join } from "node:path";
import { Client, StreamableHTTPClientTransport, type InputRequiredResult } from "@modelcontextprotocol/client";
import { ErrorType } from "herald";
import { HOOK_TIMEOUT } from "herald/testing";
import { HeraldProcess } from "../../support/herald-process";

// Separate `herald start` processes (of the built CLI, so `npm run build` first): the retry of a
// question round may reach another process than the one that asked.
const appDir = join(__dirname, "../../fixtures/apps/mcp-ask");
const KEY = "k".repeat(32);
const started: HeraldProcess[] = [];
const clients: Client[] = [];

async function start(env: NodeJS.ProcessEnv): Promise<HeraldProcess> {
  const server = await HeraldProcess.start(appDir, { REDIS_URL: "", HOST: "127.0.0.1", ...env });
  started.push(server);
  return server;
}

/** The v2 client pinned to 2026-07-28 in manual mode: an input_required result comes back as it is. */
async function clientOf(server: HeraldProcess): Promise<Client> {
  const client = new Client(
    { name: "processes", version: "1.0.0" },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } }, inputRequired: { autoFulfill: false } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  clients.push(client);
  return client;
}

async function firstRound(server: HeraldProcess): Promise<InputRequiredResult> {
  return (await (await clientOf(server)).callTool({ name: "ask-greet", arguments: {} }, { allowInputRequired: true })) as unknown as InputRequiredResult;
}

function retry(state: string | undefined) {
  return { name: "ask-greet", arguments: {}, inputResponses: { who: { action: "accept", content: { name: "Ada" } } }, requestState: state };
}

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all(started.map((server) => server.stop()));
}, HOOK_TIMEOUT);

test("with one MCP_REQUEST_STATE_KEY, another process answers the retry", async () => {
  const [one, two] = await Promise.all([start({ MCP_REQUEST_STATE_KEY: KEY }), start({ MCP_REQUEST_STATE_KEY: KEY })]);
  const asked = await firstRound(one!);
  expect(asked.resultType).toBe("input_required");
  const answered = await (await clientOf(two!)).callTool(retry(asked.requestState));
  expect(answered.structuredContent).toEqual({ greeting: "Hello, Ada" });
}, HOOK_TIMEOUT);

test("without it (outside production), each process signs with its own key: another process refuses the state", async () => {
  const [one, two] = await Promise.all([start({}), start({})]);
  const asked = await firstRound(one!);
  await expect((await clientOf(two!)).callTool(retry(asked.requestState))).rejects.toMatchObject({ code: -32602 });
  // The process that asked accepts its own state.
  expect((await (await clientOf(one!)).callTool(retry(asked.requestState))).structuredContent).toEqual({ greeting: "Hello, Ada" });
}, HOOK_TIMEOUT);

test("in production without it, the boot warns and no MCP call can ask: the 422 names the setting", async () => {
  const server = await start({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(32) });
  expect(server.logs.some((line) => line.level === 40 && /MCP_REQUEST_STATE_KEY is unset/.test(line.msg))).toBe(true);
  const client = await clientOf(server);
  const result = await client.callTool({ name: "ask-greet", arguments: {} }, { allowInputRequired: true });
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toMatchObject({ error: { type: ErrorType.CONNECTION_INPUT_REQUIRED, value: { keys: ["who"] } } });
  expect((result.structuredContent as { error: { message: string } }).error.message).toContain("MCP_REQUEST_STATE_KEY is unset");
}, HOOK_TIMEOUT);
