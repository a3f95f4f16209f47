import { serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import { Message } from "../../sample-app/entities/message";
import { TASK_OPERATIONS } from "../../src/core/ports/task-operations";
import { rpc, TASKS, type RpcAnswer } from "../transports/mcp/support/raw-rpc";
import { createUser, database, SAMPLE_APP, truncateAll } from "./support/app";
import { usePostgresSchema } from "./support/postgres";

/**
 * The sample app's messages:export: every message as CSV, reporting its progress, over HTTP at
 * once and over MCP as a task for a client that declared the extension; rate-limited per address.
 * On PostgreSQL, with the server's task workers on the in-process queue.
 */
const EXPORTS_PER_ADDRESS = 4;
const postgres = usePostgresSchema("sample_export");
useTestServer({ appDir: SAMPLE_APP, env: { EXPORTS_PER_ADDRESS: String(EXPORTS_PER_ADDRESS), REDIS_URL: "", DATABASE_URL: postgres.url } });

const MESSAGES = 250;

beforeAll(async () => {
  await truncateAll();
  const authorId = await createUser({ name: "Ada Lovelace", email: "ada@example.com", password: "correct horse" });
  const rows = Array.from({ length: MESSAGES }, (_, index) => ({ body: index === 0 ? 'She said "hi", then left' : `message ${index + 1}`, user_id: index % 2 ? null : authorId }));
  await database().getRepository(Message).insert(rows);
});

test("over HTTP the export answers with every message as CSV, oldest first, quotes doubled", async () => {
  const response = await fetch(`${serverUrl()}/api/messages/export`);
  expect(response.status).toBe(200);
  const { count, csv } = (await response.json()) as { count: number; csv: string };
  expect(count).toBe(MESSAGES);
  const lines = csv.trimEnd().split("\n");
  expect(lines).toHaveLength(MESSAGES + 1);
  expect(lines[0]).toBe("id,author,body,created_at");
  expect(lines[1]).toMatch(/^\d+,"Ada Lovelace","She said ""hi"", then left",\d{4}-\d\d-\d\dT/);
  expect(lines[2]).toMatch(/^\d+,,"message 2",/);
  const ids = lines.slice(1).map((line) => Number(line.split(",")[0]));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
});

test("over MCP a client with the tasks extension gets a task, completed with the export, its progress kept with the job", async () => {
  const mcp = `${serverUrl()}/mcp`;
  const withTasks = { capabilities: { extensions: { [TASKS]: {} } } };
  const created = await rpc(mcp, "tools/call", { name: "messages-export", arguments: {} }, withTasks);
  expect(created.result).toMatchObject({ resultType: "task", status: "working" });
  let task: RpcAnswer | undefined;
  await waitFor(async () => (task = await rpc(mcp, "tasks/get", { taskId: created.result!.taskId }, withTasks)).result?.status !== "working");
  expect(task!.result).toMatchObject({ status: "completed", result: { structuredContent: { count: MESSAGES } } });

  const jobId = (JSON.parse(Buffer.from(String(created.result!.taskId).split(".")[0]!, "base64url").toString("utf8")) as string[])[1]!;
  const job = await testServer().container.resolve(TASK_OPERATIONS).getJob("exports", jobId);
  expect(job?.progress).toEqual({ progress: MESSAGES, total: MESSAGES, message: `${MESSAGES} of ${MESSAGES} messages` });
});

test("past EXPORTS_PER_ADDRESS an hour an address is refused 429, over HTTP and MCP's task creation alike", async () => {
  // The two tests above made one export each.
  const answers: number[] = [];
  for (let call = 0; call < EXPORTS_PER_ADDRESS - 2; call++) answers.push((await fetch(`${serverUrl()}/api/messages/export`)).status);
  expect(answers).toEqual([200, 200]);
  expect((await fetch(`${serverUrl()}/api/messages/export`)).status).toBe(429);
  const refused = await rpc(`${serverUrl()}/mcp`, "tools/call", { name: "messages-export", arguments: {} }, { capabilities: { extensions: { [TASKS]: {} } } });
  expect(refused.result).toMatchObject({ isError: true, structuredContent: { error: { type: "CONNECTION_RATE_LIMITED" } } });
});
