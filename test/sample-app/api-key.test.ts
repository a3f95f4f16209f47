import { Connection, CONNECTION_TYPE } from "herald";
import { startTestServer, testServer, useTestServer } from "herald/testing";
import { RequireApiKey } from "../../sample-app/middleware/require-api-key";
import { usePostgresSchema } from "./support/postgres";
import { SAMPLE_APP } from "./support/app";

const postgres = usePostgresSchema("sample_api_key");
// No ADMIN_API_KEY: the guarded actions are shut to the network, whatever key is presented.
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, ADMIN_API_KEY: "" } });

describe("RequireApiKey without an ADMIN_API_KEY setting", () => {
  // No sample action a network transport may call uses it, so it is called as the dispatcher would.
  const guard = () => testServer().container.resolve(RequireApiKey);

  test("refuses every network caller, with a key or without", async () => {
    const attempts: Record<string, string>[] = [{}, { "x-api-key": "" }, { "x-api-key": "any-key-of-at-least-32-characters-long" }];
    for (const type of [CONNECTION_TYPE.web, CONNECTION_TYPE.websocket, CONNECTION_TYPE.mcp]) {
      for (const headers of attempts) {
        await expect(guard().runBefore({}, new Connection({ type, headers }))).rejects.toMatchObject({
          type: "CONNECTION_NOT_AUTHENTICATED",
          message: "A valid API key is required",
        });
      }
    }
  });

  test("lets the task workers and the CLI through", async () => {
    for (const type of [CONNECTION_TYPE.task, CONNECTION_TYPE.cli]) {
      await expect(guard().runBefore({}, new Connection({ type }))).resolves.toBeUndefined();
    }
  });
});

describe("an ADMIN_API_KEY shorter than 32 characters", () => {
  test("fails the boot, naming the setting but not its value", async () => {
    const failure = await startTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, ADMIN_API_KEY: "too-short-a-key" } }).then(
      async (server) => {
        await server.stop();
        return undefined;
      },
      (error: Error) => error,
    );
    expect(failure).toMatchObject({ type: "SERVER_INITIALIZATION" });
    expect(failure!.message).toContain("ADMIN_API_KEY: must be at least 32 characters");
    expect(JSON.stringify(failure)).not.toContain("too-short-a-key");
    expect(String((failure as Error & { cause?: unknown }).cause)).not.toContain("too-short-a-key");
  });
});
