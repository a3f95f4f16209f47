import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { HeraldServer, TaskService } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { call } from "../reliability/support/http";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "../reliability/support/shared-redis";
import { WsClient } from "../reliability/support/ws-client";
import { jsonLogs } from "../support/json-logs";
import { DOCUMENTED_DEFAULT, DOCUMENTED_EXAMPLE } from "./fixtures/secrets-app/actions/account";

/**
 * A run of actions with secret() fields on every transport (HTTP, WebSocket, MCP, tasks, CLI),
 * succeeding and failing every way, with every log line captured at trace level: no secret value
 * may appear in a log line, an error body, the OpenAPI document, the MCP tool list or the CLI's output.
 */
const appDir = join(__dirname, "fixtures/secrets-app");
const HERALD_BIN = join(__dirname, "../../dist/cli-entry.js");
const name = uniqueAppName("secrets");
const env = { REDIS_URL: SHARED_REDIS_URL, NAME: name, LOG_LEVEL: "trace", LOG_FORMAT: "json" };

const password = `pw-${randomUUID()}`;
const apiKey = `key-${randomUUID()}`;
const token = `tok-${randomUUID()}`;
const SECRETS = [password, apiKey, token, DOCUMENTED_EXAMPLE, DOCUMENTED_DEFAULT];

const logs = jsonLogs();
/** Every answer, error body and document the run produced, as text. */
const answers: string[] = [];
let server: HeraldServer;

beforeAll(async () => {
  server = await startTestServer({ appDir, env, logDestination: logs.stream });
}, HOOK_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  await deleteAppKeys(name);
}, HOOK_TIMEOUT);

const good = { email: "ada@example.com", password, apiKey };
/** Calls that fail validation on the secret field itself, and on another field beside a valid secret. */
const invalid = [
  { email: "ada@example.com", password: `${password}${"x".repeat(300)}`, apiKey },
  { email: "not an e-mail", password, apiKey },
  { email: "ada@example.com", password, apiKey: { nested: apiKey } },
];
const ACTIONS = ["account:create", "account:reject", "account:crash", "account:slow"];
const ROUTES: Record<string, string> = {
  "account:create": "/account",
  "account:reject": "/account/reject",
  "account:crash": "/account/crash",
  "account:slow": "/account/slow",
};

function cli(args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(process.execPath, [HERALD_BIN, ...args], { cwd: appDir, env: { ...process.env, NODE_ENV: "test", ...env }, timeout: 60_000 }, (_error, stdout, stderr) =>
      resolve(`${stdout}\n${stderr}`),
    );
  });
}

test("the run covers every transport and every way to fail", async () => {
  const api = `${server.url}/api`;
  for (const action of ACTIONS) {
    for (const params of [good, ...invalid]) {
      answers.push(JSON.stringify((await call(`${api}${ROUTES[action]}`, { method: "PUT", body: params })).body));
    }
  }

  const socket = await WsClient.open(server.url!);
  for (const action of ACTIONS) for (const params of [good, ...invalid]) answers.push(JSON.stringify(await socket.call(action, params)));
  await socket.close();

  let rpcId = 0;
  const mcp = async (method: string, params: unknown) => {
    rpcId += 1;
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: rpcId, method, params }),
    });
    answers.push(await response.text());
  };
  for (const action of ACTIONS) for (const params of [good, ...invalid]) await mcp("tools/call", { name: action.replace(":", "-"), arguments: params });
  await mcp("tools/list", {});

  const tasks = server.container.resolve(TaskService);
  const jobIds: string[] = [];
  for (const fail of [false, true]) {
    const enqueued = await call(`${api}/account/notify`, { method: "POST", body: { token, fail } });
    answers.push(JSON.stringify(enqueued.body));
    jobIds.push(enqueued.body.jobId);
  }
  await waitFor(async () => {
    const jobs = await Promise.all(jobIds.map((id) => tasks.getJob("secrets", id)));
    return jobs.every((job) => job?.status === "succeeded" || job?.status === "failed");
  }, { timeout: 20_000 });

  answers.push((await call(`${api}/openapi.json`)).body ? JSON.stringify((await call(`${api}/openapi.json`)).body) : "");
  answers.push(await cli(["account:create", "--email", "cli@example.com", "--password", password, "--apiKey", apiKey]));
  answers.push(await cli(["account:crash", "--email", "cli@example.com", "--password", password, "--apiKey", apiKey]));
  answers.push(await cli(["tasks", "failed", "secrets"]));

  // The grep below is meaningful only if the params were logged (redacted) on every transport.
  const logged = logs.lines.filter((line) => line.msg === "action" || line.msg === "action failed");
  expect(new Set(logged.map((line) => line.connection))).toEqual(new Set(["web", "websocket", "mcp", "task"]));
  // Valid params are logged redacted (4 actions on 3 transports, and the jobs); invalid ones by their keys only.
  expect(logged.filter((line) => JSON.stringify(line.params ?? {}).includes("[[secret]]")).length).toBeGreaterThanOrEqual(12);
  expect(logged.filter((line) => line.status === 422).every((line) => line.params === undefined && line.paramKeys.includes("password"))).toBe(true);
  expect(answers.at(-3)).toContain("[[secret]]");
  expect(answers.at(-1)).toContain("The mailer refused");
}, HOOK_TIMEOUT * 2);

test("no secret value is in any log line, answer, error body, document or CLI output", () => {
  const leaks = [...logs.text, ...answers].flatMap((text) => SECRETS.filter((secret) => text.includes(secret)).map((secret) => `${secret} in: ${text.slice(0, 300)}`));
  expect(leaks).toEqual([]);
});
