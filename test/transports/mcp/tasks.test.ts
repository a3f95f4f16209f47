import { join } from "node:path";
import type { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import type { ActionDefinition } from "../../../src/core/action";
import { rootContainer } from "../../../src/core/container";
import { TASK_OPERATIONS } from "../../../src/core/ports/task-operations";
import { ActionRegistry } from "../../../src/core/registry";
import { McpCatalog } from "../../../src/transports/mcp/catalog";
import { rpc, TASKS, type RpcAnswer } from "./support/raw-rpc";

/**
 * MCP's tasks extension (SEP-2663) over Herald's jobs, on the in-process queue: a client that
 * declared the extension gets a task for a tool whose action has `task`, reads it with
 * `tasks/get` until it ends, and may cancel it; a client without it gets the result in the call.
 * Across processes on Redis: tasks-processes.test.ts.
 */
const APP = join(__dirname, "../../fixtures/apps/mcp-tasks");
const WITH_TASKS: Parameters<typeof rpc>[3] = { capabilities: { extensions: { [TASKS]: {} } } };
const NO_TASKS: Parameters<typeof rpc>[3] = { capabilities: {} };
let server: HeraldServer;
let url: string;

beforeAll(async () => {
  server = await startTestServer({ appDir: APP, env: { REDIS_URL: "", TASKS_RETRIES: "0", TASKS_CONCURRENCY: "1", LOG_LEVEL: "fatal" } });
  url = `${server.url}/mcp`;
}, HOOK_TIMEOUT);
afterAll(() => server?.stop(), HOOK_TIMEOUT);

const call = (name: string, args: Record<string, unknown>, options = WITH_TASKS) => rpc(url, "tools/call", { name, arguments: args }, options);
const get = (taskId: string, options: Parameters<typeof rpc>[3] = WITH_TASKS) => rpc(url, "tasks/get", { taskId }, options);

/** `tasks/get` until the task has left `working`. */
async function settled(taskId: string): Promise<Record<string, any>> {
  let answer: RpcAnswer | undefined;
  await waitFor(async () => (answer = await get(taskId)).result?.status !== "working");
  return answer!.result!;
}

test("server/discover lists the extension, in capabilities.extensions and nowhere else", async () => {
  const discovered = await rpc(url, "server/discover", {});
  expect(discovered.result!.capabilities.extensions).toEqual({ [TASKS]: {} });
  expect(discovered.result!.capabilities.tasks).toBeUndefined();
});

/** Opens the gate of a `gated` call once its job waits at it (the fixture's gates, on globalThis). */
async function openGate(gate: string): Promise<void> {
  const gates = (globalThis as Record<symbol, unknown>)[Symbol.for("herald.test.mcpTaskGates")] as Map<string, () => void> | undefined;
  await waitFor(() => gates?.has(gate) === true);
  gates!.get(gate)!();
}

test("a client that declared the extension gets a task, readable at once, then completed with the tool's result", async () => {
  // The job waits at its gate until the task has been read working, however slow the machine.
  const created = await call("gated", { gate: "first", label: "first" });
  const task = created.result!;
  expect(task).toMatchObject({ resultType: "task", status: "working", taskId: expect.any(String) });
  expect(Number.isInteger(task.ttlMs) && Number.isInteger(task.pollIntervalMs)).toBe(true);
  expect(new Date(task.createdAt).toISOString()).toBe(task.createdAt);
  for (const absent of ["task", "ttl", "pollInterval", "requestState", "content"]) expect(task).not.toHaveProperty(absent);

  const working = await get(task.taskId);
  expect(working.result).toMatchObject({ resultType: "complete", taskId: task.taskId, status: "working" });
  expect(working.result).not.toHaveProperty("result");

  await openGate("first");
  const done = await settled(task.taskId);
  expect(done.status).toBe("completed");
  expect(done.result.structuredContent).toEqual({ label: "first", pid: process.pid });
  expect(done.result.content[0]).toMatchObject({ type: "text" });
  expect(done).not.toHaveProperty("error");
});

test("without the extension the call answers at once, a required-task tool is refused with -32021, and tasks/* too", async () => {
  const direct = await call("slow", { ms: 0, label: "sync" }, NO_TASKS);
  expect(direct.result).toMatchObject({ resultType: "complete", structuredContent: { label: "sync" } });
  const required = await call("refusing", {}, NO_TASKS);
  expect(required.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
  const task = (await call("slow", { ms: 0 })).result!;
  expect((await get(task.taskId, NO_TASKS)).error).toMatchObject({ code: -32021 });
});

test("a sync-only tool, and a task tool with taskSupport forbidden, answer at once even to a client with the extension", async () => {
  expect((await call("greet", { name: "Ada" })).result).toMatchObject({ resultType: "complete", structuredContent: { greeting: "Hello, Ada!" } });
  expect((await call("immediate", {})).result).toMatchObject({ resultType: "complete", structuredContent: { immediate: true } });
});

test("the action's own refusal completes the task with isError; a crash fails it with a JSON-RPC error and no result", async () => {
  const refused = await settled((await call("refusing", {})).result!.taskId);
  expect(refused).toMatchObject({ status: "completed", result: { isError: true } });
  expect(refused.result.content[0].text).toContain("Nothing to refund");

  const crashed = await settled((await call("crashing", {})).result!.taskId);
  expect(crashed).toMatchObject({ status: "failed", error: { code: -32603, message: expect.any(String) } });
  expect(crashed).not.toHaveProperty("result");
});

test("a task's creation is a call, through the action's middleware: over its rate limit, a tool error and no task", async () => {
  const answers = [await call("limited", {}), await call("limited", {}), await call("limited", {})];
  expect(answers.slice(0, 2).map((answer) => answer.result!.resultType)).toEqual(["task", "task"]);
  expect(answers[2]!.result).toMatchObject({ resultType: "complete", isError: true, structuredContent: { error: { type: "CONNECTION_RATE_LIMITED" } } });
  expect(answers[2]!.result).not.toHaveProperty("taskId");
});

test("invalid params are answered at once as a tool error, with no task", async () => {
  const answer = await call("slow", { ms: "soon" });
  expect(answer.result).toMatchObject({ resultType: "complete", isError: true });
  expect(answer.result).not.toHaveProperty("taskId");
});

test("tasks/cancel stops a running task's job: cancelled, and a second cancel is the same empty ack", async () => {
  const task = (await call("slow", { ms: 60_000 })).result!;
  await waitFor(async () => (await jobOf(task.taskId))?.status === "active");
  const cancelled = await rpc(url, "tasks/cancel", { taskId: task.taskId }, WITH_TASKS);
  expect(cancelled.result).toMatchObject({ resultType: "complete" });
  expect(cancelled.result).not.toHaveProperty("taskId");
  expect((await get(task.taskId)).result!.status).toBe("cancelled");
  expect((await rpc(url, "tasks/cancel", { taskId: task.taskId }, WITH_TASKS)).result).toMatchObject({ resultType: "complete" });
  // The job's signal fired: it ended long before its minute.
  await waitFor(async () => (await jobOf(task.taskId))?.status === "failed");
});

test("a cancelled task that has not run yet is removed from the queue", async () => {
  // One at a time on the queue: the second waits behind the first.
  const first = (await call("slow", { ms: 300 })).result!;
  const tasks = Array.from({ length: 6 }, () => call("slow", { ms: 300 }));
  const last = (await Promise.all(tasks)).at(-1)!.result!;
  expect((await rpc(url, "tasks/cancel", { taskId: last.taskId }, WITH_TASKS)).result).toMatchObject({ resultType: "complete" });
  expect((await get(last.taskId)).result!.status).toBe("cancelled");
  expect(await jobOf(last.taskId)).toBeUndefined();
  await settled(first.taskId);
});

test("what the job reports of its progress is the working task's statusMessage", async () => {
  for (const [message, expected] of [["a quarter done", "a quarter done"], [undefined, "1/4"]] as const) {
    const task = (await call("counting", message ? { message } : {})).result!;
    let statusMessage: unknown;
    await waitFor(async () => (statusMessage = (await get(task.taskId)).result!.statusMessage) !== undefined);
    expect(statusMessage).toBe(expected);
    await rpc(url, "tasks/cancel", { taskId: task.taskId }, WITH_TASKS);
    await waitFor(async () => (await jobOf(task.taskId))?.status === "failed");
  }
});

test("a task id is the caller's own: another address, a tampered id or a made-up one is an unknown task (-32602)", async () => {
  const task = (await call("slow", { ms: 0 })).result!;
  const fromElsewhere = await rpc(url, "tasks/get", { taskId: task.taskId }, { ...WITH_TASKS, localAddress: "127.0.0.2" });
  expect(fromElsewhere.error).toMatchObject({ code: -32602 });
  const [body, mac] = (task.taskId as string).split(".");
  const tampered = `${body!.slice(0, -2)}AA.${mac}`;
  for (const taskId of [tampered, "not-a-task", `${body}.${"A".repeat(43)}`]) {
    expect((await get(taskId)).error).toMatchObject({ code: -32602 });
    expect((await rpc(url, "tasks/cancel", { taskId }, WITH_TASKS)).error).toMatchObject({ code: -32602 });
  }
});

test("the removed v1 methods are not served (-32601); tasks/update of a task that waits for nothing is -32602", async () => {
  expect((await rpc(url, "tasks/result", { taskId: "x" }, WITH_TASKS)).error).toMatchObject({ code: -32601 });
  expect((await rpc(url, "tasks/list", {}, WITH_TASKS)).error).toMatchObject({ code: -32601 });
  const task = (await call("slow", { ms: 0 })).result!;
  await settled(task.taskId);
  expect((await rpc(url, "tasks/update", { taskId: task.taskId, inputResponses: {} }, WITH_TASKS)).error).toMatchObject({ code: -32602 });
});

describe("a job that asks its caller (connection.ask)", () => {
  const ASKABLE: Parameters<typeof rpc>[3] = { capabilities: { elicitation: {}, extensions: { [TASKS]: {} } } };
  const getAskable = (taskId: string) => rpc(url, "tasks/get", { taskId }, ASKABLE);
  const update = (taskId: string, inputResponses: Record<string, unknown>) => rpc(url, "tasks/update", { taskId, inputResponses }, ASKABLE);
  const accept = (name: string) => ({ action: "accept", content: { name } });

  async function waiting(taskId: string): Promise<Record<string, any>> {
    let answer: RpcAnswer | undefined;
    await waitFor(async () => (answer = await getAskable(taskId)).result?.status === "input_required");
    return answer!.result!;
  }

  test("turns the task input_required with its questions; tasks/update answers them and the job runs again to its end", async () => {
    const task = (await rpc(url, "tools/call", { name: "asking", arguments: {} }, ASKABLE)).result!;
    const asked = await waiting(task.taskId);
    expect(asked.inputRequests).toEqual({
      who: { method: "elicitation/create", params: { mode: "form", message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string", minLength: 1 } }, required: ["name"] } } },
    });
    expect(asked).not.toHaveProperty("requestState");
    const ack = await update(task.taskId, { who: accept("Ada") });
    expect(ack.result).toMatchObject({ resultType: "complete" });
    expect(ack.result).not.toHaveProperty("status");
    let done: RpcAnswer | undefined;
    await waitFor(async () => (done = await getAskable(task.taskId)).result?.status === "completed");
    expect(done!.result!.result.structuredContent).toEqual({ greeting: "Hello, Ada!" });
  });

  test("answered one at a time, the task waits for the rest, showing only the open questions", async () => {
    const task = (await rpc(url, "tools/call", { name: "asking", arguments: { twice: true } }, ASKABLE)).result!;
    expect(Object.keys((await waiting(task.taskId)).inputRequests).sort()).toEqual(["first", "second"]);
    await update(task.taskId, { first: accept("Ada") });
    const half = (await getAskable(task.taskId)).result!;
    expect(half.status).toBe("input_required");
    expect(Object.keys(half.inputRequests)).toEqual(["second"]);
    await update(task.taskId, { second: accept("Grace") });
    let done: RpcAnswer | undefined;
    await waitFor(async () => (done = await getAskable(task.taskId)).result?.status === "completed");
    expect(done!.result!.result.structuredContent).toEqual({ greeting: "Hello, Ada and Grace!" });
  });

  test("an answer its form refuses is asked for again", async () => {
    const task = (await rpc(url, "tools/call", { name: "asking", arguments: {} }, ASKABLE)).result!;
    await waiting(task.taskId);
    await update(task.taskId, { who: accept("") });
    // The job ran again, and asked again: the task waits once more.
    const again = await waiting(task.taskId);
    expect(Object.keys(again.inputRequests)).toEqual(["who"]);
    await update(task.taskId, { who: accept("Ada") });
    await waitFor(async () => (await getAskable(task.taskId)).result?.status === "completed");
  });

  test("a caller that declared no elicitation gets the tool's error: the job cannot ask it", async () => {
    const refused = await settled((await call("asking", {})).result!.taskId);
    expect(refused).toMatchObject({ status: "completed", result: { isError: true } });
    expect(refused.result.structuredContent.error).toMatchObject({ type: "CONNECTION_INPUT_REQUIRED", value: { keys: ["who"] } });
  });

  test("a cancelled task that waits for input stays cancelled: tasks/update is refused", async () => {
    const task = (await rpc(url, "tools/call", { name: "asking", arguments: {} }, ASKABLE)).result!;
    await waiting(task.taskId);
    expect((await rpc(url, "tasks/cancel", { taskId: task.taskId }, ASKABLE)).result).toMatchObject({ resultType: "complete" });
    expect((await getAskable(task.taskId)).result!.status).toBe("cancelled");
    expect((await update(task.taskId, { who: accept("Ada") })).error).toMatchObject({ code: -32602 });
  });
});

test("mcp.taskSupport on an action without task stops the boot, naming the action", () => {
  const registry = new ActionRegistry(rootContainer.createChildContainer());
  registry.add({ name: "report:build", mcp: { taskSupport: "required" }, run: async () => null } as ActionDefinition, "actions/report.ts");
  expect(() => new McpCatalog(registry.list())).toThrow('Action "report:build" sets mcp.taskSupport to "required" without "task"');
});

/** The job id a task id carries (its signed body: queue, job id, owner, time). */
function jobIdOf(taskId: string): string {
  return (JSON.parse(Buffer.from(taskId.split(".")[0]!, "base64url").toString("utf8")) as string[])[1]!;
}

/** The job behind a task, as the queue holds it. */
function jobOf(taskId: string) {
  return server.container.resolve(TASK_OPERATIONS).getJob("mcp", jobIdOf(taskId));
}
