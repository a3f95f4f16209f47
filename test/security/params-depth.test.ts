import { Connection, CONNECTION_TYPE, ErrorType } from "herald";
import { testServer, useTestServer } from "herald/testing";
import { join } from "node:path";

/** The nesting bound the dispatcher puts on every transport's params, at its edge. */
useTestServer({ appDir: join(__dirname, "fixtures/app"), env: { REDIS_URL: "", LOG_LEVEL: "fatal" } });

/** Params `levels` objects deep, the params object itself being the first. */
function nested(levels: number): Record<string, unknown> {
  let inner: Record<string, unknown> = { leaf: true };
  for (let level = 2; level < levels; level += 1) inner = { a: inner };
  return { body: "hello", userId: 1, meta: inner };
}

const post = (params: Record<string, unknown>) =>
  testServer().runAction("message:post", params, new Connection({ type: CONNECTION_TYPE.websocket }));

test("params 100 levels deep are served", async () => {
  expect((await post(nested(100))).status).toBe(200);
});

test("params 101 levels deep are refused with 400 before validation", async () => {
  const result = await post(nested(101));
  expect(result.status).toBe(400);
  expect(result.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING, key: "params" });
});
