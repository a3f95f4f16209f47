import { join } from "node:path";
import { Connection, CONNECTION_TYPE, ErrorType } from "herald";
import { testServer, useTestServer } from "herald/testing";

useTestServer({ appDir: join(__dirname, "{{appRoot}}") });

const run = (params: Record<string, unknown>) =>
  testServer().runAction("{{name}}", params, new Connection({ type: CONNECTION_TYPE.cli }));

test("{{name}} answers", async () => {
  const result = await run({{sampleParams}});
  expect(result.error).toBeUndefined();
  expect(result.response).toEqual({ message: "Hello {{sampleGreeted}}, from {{name}}" });
});

test("{{name}} refuses a call without its required inputs", async () => {
  const result = await run({});
  expect(result.error?.type).toBe(ErrorType.CONNECTION_ACTION_PARAM_REQUIRED);
});
{{transportTests}}