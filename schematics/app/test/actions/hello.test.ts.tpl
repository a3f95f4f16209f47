import { join } from "node:path";
import { Connection, CONNECTION_TYPE } from "herald";
import { serverUrl, testServer, useTestServer } from "herald/testing";

useTestServer({ appDir: join(__dirname, "../..") });

test("GET /api/hello greets", async () => {
  const response = await fetch(`${serverUrl()}/api/hello?who=Ada`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ greeting: "Hello, Ada!" });
});

test("hello:say runs the same way from any transport", async () => {
  const result = await testServer().runAction("hello:say", {}, new Connection({ type: CONNECTION_TYPE.cli }));
  expect(result.response).toEqual({ greeting: "Hello, world!" });
});
