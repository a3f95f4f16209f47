import { join } from "node:path";
import { Connection, CONNECTION_TYPE, TaskService } from "herald";
import { testServer, useTestServer } from "herald/testing";

/**
 * A task call is checked when it is queued by the dispatcher itself, as it would check the call
 * arriving: the app's params bounds (here PARAMS_MAX_KEYS=4), not the defaults, and the same
 * refusal of an action the task transport may not call.
 */
useTestServer({
  appDir: join(__dirname, "../../fixtures/apps/tasks-basic"),
  env: { REDIS_URL: "", PARAMS_MAX_KEYS: "4", LOG_LEVEL: "fatal" },
});

const tasks = () => testServer().container.resolve(TaskService);

test("params past the app's bounds are refused at enqueue, as a call would be", async () => {
  const params = { label: "too many", a: 1, b: 2, c: 3, d: 4 };
  const call = await testServer().runAction("jobs:record", params, new Connection({ type: CONNECTION_TYPE.task }));
  expect(call.error).toMatchObject({ type: "CONNECTION_PAYLOAD_TOO_LARGE", key: "params" });
  await expect(tasks().enqueue("jobs:record", params)).rejects.toMatchObject({ type: "CONNECTION_PAYLOAD_TOO_LARGE", key: "params" });
  expect((await tasks().stats("work")).work).toMatchObject({ waiting: 0, active: 0, delayed: 0 });
});

test("params within them are queued", async () => {
  await expect(tasks().enqueue("jobs:record", { label: "fits" })).resolves.toEqual(expect.any(String));
});

test("an action that is not a task call is unknown to enqueue, as to a worker", async () => {
  await expect(tasks().enqueue("no:such-action", {})).rejects.toMatchObject({ type: "CONNECTION_ACTION_NOT_FOUND", key: "action" });
});
