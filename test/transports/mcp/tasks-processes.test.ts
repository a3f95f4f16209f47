import { join } from "node:path";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "../../reliability/support/shared-redis";
import { HeraldProcess } from "../../support/herald-process";
import { rpc, TASKS, type RpcAnswer } from "./support/raw-rpc";

/**
 * MCP tasks across `herald start` processes (of the built CLI) on one Redis: a task made through
 * one process is read and cancelled through another, as behind a round-robin balancer; the job
 * runs wherever a worker takes it.
 */
const APP = join(__dirname, "../../fixtures/apps/mcp-tasks");
const NAME = uniqueAppName("mcp-tasks");
const WITH_TASKS = { capabilities: { extensions: { [TASKS]: {} } } };
const started: HeraldProcess[] = [];

async function start(env: NodeJS.ProcessEnv): Promise<HeraldProcess> {
  const server = await HeraldProcess.start(APP, { REDIS_URL: SHARED_REDIS_URL, NAME, HOST: "127.0.0.1", TASKS_RETRIES: "0", ...env });
  started.push(server);
  return server;
}

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  await deleteAppKeys(NAME);
}, HOOK_TIMEOUT);

async function settledOn(server: HeraldProcess, taskId: string): Promise<Record<string, any>> {
  let answer: RpcAnswer | undefined;
  await waitFor(async () => (answer = await rpc(`${server.url}/mcp`, "tasks/get", { taskId }, WITH_TASKS)).result?.status !== "working");
  return answer!.result!;
}

test("with one MCP_REQUEST_STATE_KEY, a task made through one process is read and cancelled through another", async () => {
  const key = "t".repeat(32);
  // Only the second works the tools' queue: a job runs there, and is cancelled through the first.
  const [one, two] = await Promise.all([start({ MCP_REQUEST_STATE_KEY: key, TASKS_QUEUES: "elsewhere" }), start({ MCP_REQUEST_STATE_KEY: key })]);
  const created = await rpc(`${one!.url}/mcp`, "tools/call", { name: "slow", arguments: { ms: 100, label: "across" } }, WITH_TASKS);
  const done = await settledOn(two!, created.result!.taskId);
  expect(done).toMatchObject({ status: "completed", result: { structuredContent: { label: "across" } } });

  const long = await rpc(`${two!.url}/mcp`, "tools/call", { name: "slow", arguments: { ms: 60_000, label: "long" } }, WITH_TASKS);
  const logsOf = (msg: string) => two!.logs.filter((line) => line.msg === msg && (line.label === "long" || line.params?.label === "long"));
  await waitFor(() => logsOf("slow started").length === 1);
  const cancelled = await rpc(`${one!.url}/mcp`, "tasks/cancel", { taskId: long.result!.taskId }, WITH_TASKS);
  expect(cancelled.result).toMatchObject({ resultType: "complete" });
  for (const server of [one!, two!]) {
    expect((await rpc(`${server.url}/mcp`, "tasks/get", { taskId: long.result!.taskId }, WITH_TASKS)).result!.status).toBe("cancelled");
  }
  // Its signal fired in the process that ran it: the call ended as its caller's leaving.
  await waitFor(() => logsOf("client gone").length === 1);
}, HOOK_TIMEOUT);

test("a task waiting for input is answered through another process, whose job runs it to its end", async () => {
  const key = "u".repeat(32);
  const [one, two] = await Promise.all([start({ MCP_REQUEST_STATE_KEY: key }), start({ MCP_REQUEST_STATE_KEY: key })]);
  const askable = { capabilities: { elicitation: {}, extensions: { [TASKS]: {} } } };
  const task = (await rpc(`${one!.url}/mcp`, "tools/call", { name: "asking", arguments: {} }, askable)).result!;
  await waitFor(async () => (await rpc(`${two!.url}/mcp`, "tasks/get", { taskId: task.taskId }, askable)).result?.status === "input_required");
  const ack = await rpc(`${two!.url}/mcp`, "tasks/update", { taskId: task.taskId, inputResponses: { who: { action: "accept", content: { name: "Ada" } } } }, askable);
  expect(ack.result).toMatchObject({ resultType: "complete" });
  let done: RpcAnswer | undefined;
  await waitFor(async () => (done = await rpc(`${one!.url}/mcp`, "tasks/get", { taskId: task.taskId }, askable)).result?.status === "completed");
  expect(done!.result!.result.structuredContent).toEqual({ greeting: "Hello, Ada!" });
}, HOOK_TIMEOUT);

test("without it (outside production), each process signs its own task ids: another process knows none of them", async () => {
  const [one, two] = await Promise.all([start({}), start({})]);
  const created = await rpc(`${one!.url}/mcp`, "tools/call", { name: "slow", arguments: { ms: 0 } }, WITH_TASKS);
  expect((await rpc(`${two!.url}/mcp`, "tasks/get", { taskId: created.result!.taskId }, WITH_TASKS)).error).toMatchObject({ code: -32602 });
  expect((await settledOn(one!, created.result!.taskId)).status).toBe("completed");
}, HOOK_TIMEOUT);
