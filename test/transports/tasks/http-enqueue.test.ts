import { join } from "node:path";
import { TaskService } from "herald";
import { serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import { Ledger } from "../../fixtures/apps/tasks-basic/services/ledger";
import { deleteKeys, REDIS_URL, uniquePrefix } from "./support";

const prefix = uniquePrefix("http-enqueue");

useTestServer({
  appDir: join(__dirname, "../../fixtures/apps/tasks-basic"),
  env: { REDIS_URL, TASKS_PREFIX: prefix, LOG_LEVEL: "fatal" },
});

afterAll(() => deleteKeys(prefix));

test("an HTTP request queues a task and the server's own worker runs it", async () => {
  const response = await fetch(`${serverUrl()}/api/signup`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "grace@example.com" }),
  });
  expect(response.status).toBe(200);
  const { jobId } = (await response.json()) as { jobId: string };

  const ledger = testServer().container.resolve(Ledger);
  await waitFor(async () => (await ledger.entries()).includes("welcome:grace@example.com"));
  const tasks = testServer().container.resolve(TaskService);
  await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "succeeded");
});

test("a request whose enqueue fails validation answers with that 422", async () => {
  const response = await fetch(`${serverUrl()}/api/jobs`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ label: "" }),
  });
  expect(response.status).toBe(422);
  expect(await response.json()).toMatchObject({ error: { type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "label" } });
  expect((await testServer().container.resolve(TaskService).stats("work")).work).toMatchObject({ waiting: 0, active: 0 });
});
