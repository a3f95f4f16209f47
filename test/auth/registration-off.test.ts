import { serverUrl, useTestServer } from "herald/testing";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { SAMPLE_APP } from "../sample-app/support/app";
import { REDIRECT_URI } from "./support/oauth-flow";

const postgres = usePostgresSchema("auth_registration_off");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, REDIS_URL: "", LOG_LEVEL: "fatal", OAUTH_REGISTRATION: "off" } });

test("with registration off the metadata names no registration endpoint and a registration is not found", async () => {
  const metadata = (await (await fetch(`${serverUrl()}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  expect(metadata).not.toHaveProperty("registration_endpoint");
  expect(metadata.client_id_metadata_document_supported).toBe(true);
  const answer = await fetch(`${serverUrl()}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "Nobody", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }),
  });
  expect(answer.status).toBe(404);
});
