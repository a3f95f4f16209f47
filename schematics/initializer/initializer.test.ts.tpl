import { join } from "node:path";
import { testServer, useTestServer } from "herald/testing";

useTestServer({ appDir: join(__dirname, "{{appRoot}}") });

test("the {{initializerName}} initializer runs when the app boots", () => {
  expect(testServer().status).toBe("started");
  expect(testServer().initializers.map((initializer) => initializer.name)).toContain("{{initializerName}}");
});
