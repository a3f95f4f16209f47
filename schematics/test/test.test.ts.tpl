import { join } from "node:path";
import { serverUrl, useTestServer } from "herald/testing";

useTestServer({ appDir: join(__dirname, "{{appRoot}}") });

describe("{{description}}", () => {
  test("the app boots and answers over HTTP", async () => {
    const response = await fetch(`${serverUrl()}/api/status`);
    expect(response.status).toBe(200);
  });
});
