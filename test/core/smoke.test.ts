import { join } from "node:path";
import { Connection, CONNECTION_TYPE } from "herald";
import { useTestServer, testServer } from "herald/testing";

useTestServer({ appDir: join(__dirname, "../fixtures/apps/basic") });

test("runs an injected action", async () => {
  const result = await testServer().runAction("greet:say", { who: "Ada" }, new Connection({ type: CONNECTION_TYPE.cli }));
  expect(result).toMatchObject({ status: 200, response: { greeting: "Hello, Ada!" } });
});
