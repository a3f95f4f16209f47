import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorType, TaskService, type JobInfo } from "herald";
import { serverUrl, startTestServer, testServer, useTestServer, waitFor } from "herald/testing";
import { TaskRuntime } from "../../src/transports/tasks/runtime";
import { herald } from "../support/cli";
import { TestSocket } from "./websocket/support/test-socket";

// vault:sweep: task and CLI; vault:peek: web; vault:chat: WebSocket and MCP (actions/vault.ts).
const appDir = join(__dirname, "../fixtures/apps/transports");
useTestServer({ appDir, env: { REDIS_URL: "" } });

/** An error as its caller sees it, with the action's name (or tool name) replaced, so a refusal compares with an unknown name. */
function seen(error: { message?: unknown; type?: unknown; key?: unknown; value?: unknown } | undefined, name: string) {
  const strip = (value: unknown) => (typeof value === "string" ? value.split(name).join("<name>") : value);
  return error && { message: strip(error.message), type: error.type, key: error.key, value: strip(error.value) };
}

describe("HTTP", () => {
  test("serves the action that allows the web, at its route", async () => {
    const response = await fetch(`${serverUrl()}/api/vault/peek`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ peeked: true });
  });

  test("the OpenAPI document has an operation for it alone", async () => {
    const document = (await (await fetch(`${serverUrl()}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.includes("vault"))).toEqual(["/api/vault/peek"]);
  });

  test("a route on an action that leaves the web out fails the boot, naming the action", async () => {
    const failure = await startTestServer({ appDir: join(__dirname, "../fixtures/apps/transports-contradiction"), env: { REDIS_URL: "" } }).then(
      async (server) => {
        await server.stop();
        return undefined;
      },
      (error: Error) => error,
    );
    expect(failure).toMatchObject({ type: ErrorType.SERVER_INITIALIZATION, key: "transports" });
    expect(failure?.message).toContain('Action "vault:sweep"');
    expect(failure?.message).toContain('leave out "web"');
  });
});

describe("WebSocket", () => {
  let socket: TestSocket;
  beforeAll(async () => {
    socket = await TestSocket.open();
  });
  afterAll(() => socket.close());

  test("runs the action that allows it", async () => {
    expect((await socket.action("vault:chat", {})).response).toEqual({ chatted: true });
  });

  test.each(["vault:sweep", "vault:peek"])("answers %s exactly as an action of no name it knows", async (name) => {
    const refused = await socket.action(name, {});
    const unknown = await socket.action("vault:nothing", {});
    expect(refused.error.type).toBe(ErrorType.CONNECTION_ACTION_NOT_FOUND);
    expect(Object.keys(refused).sort()).toEqual(Object.keys(unknown).sort());
    expect(seen(refused.error, name)).toEqual(seen(unknown.error, "vault:nothing"));
  });
});

describe("MCP", () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: "herald-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
  });
  afterAll(() => client?.close());

  test("lists as a tool only the action that allows MCP", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).filter((name) => name.startsWith("vault")).sort()).toEqual(["vault-chat"]);
    expect((await client.callTool({ name: "vault-chat", arguments: {} })).structuredContent).toEqual({ chatted: true });
  });

  test.each(["vault-sweep", "vault-peek"])("answers a call of %s exactly as one of a tool it does not have", async (name) => {
    const refused = await client.callTool({ name, arguments: {} }).then(() => undefined, (error: { code: number; message: string }) => error);
    const unknown = await client.callTool({ name: "vault-nothing", arguments: {} }).then(() => undefined, (error: { code: number; message: string }) => error);
    expect(unknown).toBeDefined();
    expect({ code: refused?.code, message: refused?.message.split(name).join("<name>") }).toEqual({
      code: unknown!.code,
      message: unknown!.message.split("vault-nothing").join("<name>"),
    });
  });
});

describe("tasks", () => {
  const tasks = () => testServer().container.resolve(TaskService);

  async function settled(queue: string, jobId: string): Promise<JobInfo> {
    await waitFor(async () => ["succeeded", "failed"].includes((await tasks().getJob(queue, jobId))?.status ?? ""));
    return (await tasks().getJob(queue, jobId))!;
  }

  test("a worker runs the action that allows tasks", async () => {
    const jobId = await tasks().enqueue("vault:sweep", { age: 3 });
    expect(await settled("default", jobId)).toMatchObject({ status: "succeeded", result: { swept: 3 } });
  });

  test.each(["vault:peek", "vault:chat"])("enqueueing %s is refused as enqueueing an unknown action is", async (name) => {
    const refused = await tasks().enqueue(name).then(() => undefined, (error: Error & { type: string }) => error);
    const unknown = await tasks().enqueue("vault:nothing").then(() => undefined, (error: Error & { type: string }) => error);
    expect(refused).toMatchObject({ type: ErrorType.CONNECTION_ACTION_NOT_FOUND });
    expect(seen(refused as never, name)).toEqual(seen(unknown as never, "vault:nothing"));
  });

  test("a job that names an action tasks may not call fails as one naming an unknown action", async () => {
    const driver = await testServer().container.resolve(TaskRuntime).driver();
    const job = (action: string) => ({ payload: { action, params: {} }, retries: 0, backoff: { strategy: "fixed" as const, delayMs: 0 } });
    const [refusedId, unknownId] = await driver.enqueue("default", [job("vault:chat"), job("vault:nothing")]);
    const refused = await settled("default", refusedId!);
    const unknown = await settled("default", unknownId!);
    expect(refused.status).toBe("failed");
    expect(refused.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_NOT_FOUND });
    expect(seen(refused.error as never, "vault:chat")).toEqual(seen(unknown.error as never, "vault:nothing"));
  });
});

describe("CLI", () => {
  test("runs the action that allows the CLI", async () => {
    const run = await herald(["vault:sweep", "--age", "5", "-q"], { cwd: appDir, env: { REDIS_URL: "" } });
    expect(JSON.parse(run.stdout)).toEqual({ response: { swept: 5 } });
    expect(run.code).toBe(0);
  });

  test.each(["vault:chat", "vault:peek"])("answers %s exactly as a command it does not have", async (name) => {
    const refused = await herald([name, "-q"], { cwd: appDir, env: { REDIS_URL: "" } });
    const unknown = await herald(["vault:nothing", "-q"], { cwd: appDir, env: { REDIS_URL: "" } });
    expect(refused.code).toBe(1);
    expect(unknown.code).toBe(1);
    const error = (run: { stdout: string }) => JSON.parse(run.stdout).error;
    expect(error(refused).type).toBe(ErrorType.CONNECTION_ACTION_NOT_FOUND);
    expect(seen(error(refused), name)).toEqual(seen(error(unknown), "vault:nothing"));
    expect(refused.stderr.split(name).join("<name>")).toBe(unknown.stderr.split("vault:nothing").join("<name>"));
  });

  test("herald actions shows each action's transports", async () => {
    const run = await herald(["actions", "--json"], { cwd: appDir });
    const listed = JSON.parse(run.stdout) as { name: string; transports: string[] }[];
    expect(Object.fromEntries(listed.filter((entry) => entry.name.startsWith("vault")).map((entry) => [entry.name, entry.transports]))).toEqual({
      "vault:chat": ["websocket", "mcp"],
      "vault:peek": ["web"],
      "vault:sweep": ["cli", "task"],
    });
  });
});
