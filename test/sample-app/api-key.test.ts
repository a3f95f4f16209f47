import { startTestServer, serverUrl, useTestServer } from "herald/testing";
import { usePostgresSchema } from "./support/postgres";
import { SAMPLE_APP } from "./support/app";

const postgres = usePostgresSchema("sample_api_key");
// No ADMIN_API_KEY: the guarded actions are shut to the network, whatever key is presented.
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, ADMIN_API_KEY: "" } });

describe("RequireApiKey without an ADMIN_API_KEY setting", () => {
  test("refuses every network caller, with a key or without", async () => {
    const attempts: Record<string, string>[] = [{}, { "x-api-key": "" }, { "x-api-key": "any-key-of-at-least-32-characters-long" }];
    for (const headers of attempts) {
      const response = await fetch(`${serverUrl()}/api/messages/cleanup`, { method: "POST", headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { type: "CONNECTION_NOT_AUTHENTICATED", message: "A valid API key is required" } });
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
