import { execFile } from "node:child_process";
import { join } from "node:path";
import WebSocket from "ws";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { errorBody, ErrorStatusCodes, ErrorType, isTypedError, TaskService } from "herald";
import { HOOK_TIMEOUT, serverUrl, testServer, waitFor } from "herald/testing";
import { TaskRuntime } from "../../../src/transports/tasks/runtime";

/**
 * One action call over each of Herald's transports, as their real clients make it, reduced to
 * what the caller receives: `{ response }` or `{ error }` (the error body). Only what must differ
 * between two calls is normalized: the error's timestamp and stack, and `*_at` timestamps.
 */

export type Transport = "http" | "websocket" | "cli" | "task" | "mcp";

export type Outcome = { response: unknown } | { error: Record<string, unknown> };

/** Who calls: a session cookie (HTTP and WebSocket carry one) and request headers (HTTP, WebSocket, MCP). */
export interface Caller {
  cookie?: string;
  headers?: Record<string, string>;
}

const REPO_ROOT = join(__dirname, "../../..");
const HERALD_BIN = join(REPO_ROOT, "dist/cli-entry.js");
const TIMESTAMP = "<timestamp>";

function isIsoTimestamp(value: unknown): boolean {
  return typeof value === "string" && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
}

/** Replaces ISO `*_at` values with one placeholder, recursively; anything else stays as it is. */
function normalizeTimestamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeTimestamps);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key.endsWith("_at") && isIsoTimestamp(inner) ? TIMESTAMP : normalizeTimestamps(inner)]),
  );
}

function outcome(body: { response?: unknown; error?: Record<string, unknown> }): Outcome {
  if (body.error) {
    const { timestamp, stack: _stack, ...error } = body.error;
    expect(isIsoTimestamp(timestamp)).toBe(true);
    return { error };
  }
  return { response: normalizeTimestamps(body.response) };
}

/**
 * A query string and a command line carry text only: the value an error echoes is the text of the
 * number sent, put back as the number for the comparison.
 */
function echoAsSent(error: { key?: string; value?: unknown }, params: Record<string, unknown>): void {
  const sent = error.key === undefined ? undefined : params[error.key];
  if (typeof error.value === "string" && typeof sent !== "string" && String(sent) === error.value) error.value = sent;
}

export async function overHttp(action: string, params: Record<string, unknown>, caller: Caller): Promise<Outcome> {
  const web = testServer().registry.get(action)?.action.web;
  if (!web || typeof web.route !== "string") throw new Error(`${action} has no HTTP route`);
  const rest = { ...params };
  const path = web.route.replace(/:(\w+)/g, (_match, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  const inQuery = web.method === "GET" || web.method === "DELETE";
  const query = inQuery ? new URLSearchParams(Object.entries(rest).map(([key, value]) => [key, String(value)])).toString() : "";
  const response = await fetch(`${serverUrl()}/api${path}${query ? `?${query}` : ""}`, {
    method: web.method,
    headers: {
      ...(caller.cookie ? { cookie: caller.cookie } : {}),
      ...(inQuery ? {} : { "content-type": "application/json" }),
      ...caller.headers,
    },
    ...(inQuery ? {} : { body: JSON.stringify(rest) }),
  });
  const body = (await response.json()) as { error?: { type: ErrorType; key?: string; value?: unknown } };
  // The status goes with the body: 200 for a response, the error type's status for an error.
  expect(response.status).toBe(body.error ? ErrorStatusCodes[body.error.type] : 200);
  if (!body.error) return outcome({ response: body });
  if (inQuery) echoAsSent(body.error, params);
  return outcome(body as { error: Record<string, unknown> });
}

export async function overWebSocket(action: string, params: Record<string, unknown>, caller: Caller): Promise<Outcome> {
  const socket = new WebSocket(`${serverUrl().replace(/^http/, "ws")}/ws`, {
    headers: { ...(caller.cookie ? { cookie: caller.cookie } : {}), ...caller.headers },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const reply = new Promise<Record<string, any>>((resolve) => {
      socket.on("message", (data) => {
        const message = JSON.parse(data.toString());
        if (message.messageId === "parity") resolve(message);
      });
    });
    socket.send(JSON.stringify({ messageType: "action", messageId: "parity", action, params }));
    const { messageId: _echoed, ...body } = await reply;
    return outcome(body);
  } finally {
    socket.close();
  }
}

/**
 * The real `herald` executable, run in `cwd`: by default the repository root, where package.json's
 * "herald.app" names sample-app.
 */
export async function overCli(
  action: string,
  params: Record<string, unknown>,
  caller: Caller,
  env: NodeJS.ProcessEnv,
  cwd: string = REPO_ROOT,
): Promise<Outcome> {
  if (caller.cookie || caller.headers) throw new Error("The CLI sends no cookie and no headers: leave the caller empty");
  const flags = Object.entries(params).flatMap(([key, value]) => [`--${key}`, String(value)]);
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [HERALD_BIN, action, ...flags, "-q"],
      { cwd, env: { ...process.env, NODE_ENV: "test", ...env }, timeout: HOOK_TIMEOUT },
      (error, out, err) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout: out, stderr: err }),
    );
  });
  let body: { response?: unknown; error?: Record<string, unknown> };
  try {
    body = JSON.parse(stdout);
  } catch {
    throw new Error(`herald ${action} printed no JSON (exit ${code}):\n${stdout}\n${stderr}`);
  }
  expect(code).toBe(body.error ? 1 : 0);
  if (body.error) echoAsSent(body.error, params);
  return outcome(body);
}

function taskQueue(action: string): string {
  const queue = testServer().registry.get(action)?.action.task?.queue;
  if (!queue) throw new Error(`${action} is not a task`);
  return queue;
}

/** Waits for a job a worker of the test server runs; its stored result or error. */
async function jobOutcome(queue: string, jobId: string): Promise<Outcome> {
  const tasks = testServer().container.resolve(TaskService);
  await waitFor(async () => ["succeeded", "failed"].includes((await tasks.getJob(queue, jobId))?.status ?? ""), { timeout: HOOK_TIMEOUT });
  const job = (await tasks.getJob(queue, jobId))!;
  return outcome(job.status === "succeeded" ? { response: job.result } : { error: job.error as unknown as Record<string, unknown> });
}

/**
 * Queued with TaskService and run by a worker of the test server; the job's stored result or
 * error, or, when TaskService refuses the params before queueing, the body of that refusal.
 */
export async function asTask(action: string, params: Record<string, unknown>): Promise<Outcome> {
  const queue = taskQueue(action);
  let jobId: string;
  try {
    jobId = await testServer().container.resolve(TaskService).enqueue(action, params, { retries: 0 });
  } catch (thrown) {
    if (!isTypedError(thrown)) throw thrown;
    return outcome(errorBody(thrown, false));
  }
  return jobOutcome(queue, jobId);
}

/**
 * Queued straight through the queue driver, as a job queued by another release of the app or by
 * hand would be, so that nothing checks the params before the worker's dispatcher does.
 */
export async function asUncheckedJob(action: string, params: Record<string, unknown>): Promise<Outcome> {
  const queue = taskQueue(action);
  const driver = await testServer().container.resolve(TaskRuntime).driver();
  const [jobId] = await driver.enqueue(queue, [{ payload: { action, params }, retries: 0, backoff: { strategy: "fixed", delayMs: 0 } }]);
  return jobOutcome(queue, jobId!);
}

/** The MCP SDK's client over Streamable HTTP at /mcp; the tool is the action's name with `-` for `:`. */
export async function overMcp(action: string, params: Record<string, unknown>, caller: Caller): Promise<Outcome> {
  if (caller.cookie) throw new Error("MCP clients send no session cookie");
  const client = new Client({ name: "herald-parity", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`), { requestInit: { headers: caller.headers ?? {} } }));
  try {
    const result = await client.callTool({ name: action.replace(/:/g, "-"), arguments: params });
    // The error body is the last text block: a tool with an outputSchema has no structuredContent on an error.
    if (result.isError) return outcome(JSON.parse((result.content as { text: string }[]).at(-1)!.text));
    return outcome({ response: result.structuredContent });
  } catch (error) {
    // An authentication failure is HTTP 401 (so that MCP clients ask for credentials) whose
    // JSON-RPC error carries the message; its type is what 401 means to Herald's MCP endpoint.
    if (!(error instanceof StreamableHTTPError) || error.code !== 401) throw error;
    const rpc = JSON.parse(/\{.*\}$/s.exec(error.message)![0]) as { error: { message: string } };
    return { error: { message: rpc.error.message, type: ErrorType.CONNECTION_NOT_AUTHENTICATED } };
  } finally {
    await client.close();
  }
}
