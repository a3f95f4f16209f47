import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { OpenAPIObject, OperationObject, SchemaObject } from "openapi3-ts/oas31";
import { TaskService } from "herald";
import { serverUrl, testServer, useTestServer } from "herald/testing";
import { SAMPLE_APP } from "../sample-app/support/app";
import { usePostgresSchema } from "../sample-app/support/postgres";

/**
 * The sample app's real HTTP responses, each validated against the 200 schema its operation has
 * in the served OpenAPI document: the document says what a client gets, not only what was meant.
 */
const postgres = usePostgresSchema("sample_openapi_responses");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, LOG_LEVEL: "fatal" } });

type Method = "get" | "put" | "post" | "delete";
let document: OpenAPIObject;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const checked = new Set<string>();

beforeAll(async () => {
  document = (await (await fetch(`${serverUrl()}/api/openapi.json`)).json()) as OpenAPIObject;
});

function successSchema(path: string, method: Method, type = "application/json"): SchemaObject {
  const operation = document.paths![path]![method] as OperationObject;
  const { content } = operation.responses!["200"] as { content: Record<string, { schema: SchemaObject }> };
  // A streaming operation's 200 is its Server-Sent Events.
  return (content[type] ?? content["text/event-stream"])!.schema;
}

/** Calls the route and checks its 200 body against the document's schema for `template`. */
async function call(method: Method, template: string, path: string, options: { body?: unknown; cookie?: string } = {}) {
  const response = await fetch(`${serverUrl()}${path}`, {
    method: method.toUpperCase(),
    headers: { ...(options.body ? { "Content-Type": "application/json" } : {}), ...(options.cookie ? { Cookie: options.cookie } : {}) },
    ...(options.body ? { body: JSON.stringify(options.body) } : {}),
  });
  const body = await response.json();
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  const validate = ajv.compile(successSchema(template, method));
  expect({ path, errors: validate(body) ? null : validate.errors }).toEqual({ path, errors: null });
  checked.add(`${method} ${template}`);
  return { body, setCookie: response.headers.getSetCookie() };
}

test("every operation of the sample app documents a non-empty 200 response", () => {
  for (const [path, item] of Object.entries(document.paths!)) {
    for (const method of ["get", "put", "post", "delete"] as const) {
      if (!item[method]) continue;
      expect({ path, method, empty: Object.keys(successSchema(path, method)).length === 0 }).toEqual({ path, method, empty: false });
    }
  }
});

test("every operation's real response validates against its documented 200 schema", async () => {
  await call("get", "/api/status", "/api/status");
  const account = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
  const { body: created } = await call("put", "/api/user", "/api/user", { body: account });
  const { setCookie } = await call("put", "/api/session", "/api/session", { body: { email: account.email, password: account.password } });
  const cookie = setCookie.map((line) => line.split(";")[0]).join("; ");
  await call("get", "/api/session", "/api/session", { cookie });
  await call("get", "/api/user/{user}", `/api/user/${created.user.id}`, { cookie });
  await call("post", "/api/user", "/api/user", { body: { name: "Ada King" }, cookie });
  await call("put", "/api/message", "/api/message", { body: { body: "hello" }, cookie });
  await call("get", "/api/messages/list", "/api/messages/list?limit=5");
  await call("get", "/api/messages/export", "/api/messages/export");
  await call("post", "/api/exports", "/api/exports");
  await call("delete", "/api/session", "/api/session", { cookie });
  // The events of a job the app queued to be watched: text, each event's data JSON.
  const { handle } = await testServer().container.resolve(TaskService).enqueueWatched("messages:export", {}, "anyone");
  const events = await fetch(`${serverUrl()}/api/jobs/${handle}/events`);
  expect(events.status).toBe(200);
  expect(events.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const text = await events.text();
  expect(ajv.compile(successSchema("/api/jobs/{handle}/events", "get", "text/event-stream"))(text)).toBe(true);
  expect(text).toMatch(/^data: \{"type":"completed","result":\{"count":\d+,"csv":/m);
  checked.add("get /api/jobs/{handle}/events");

  const documented = Object.entries(document.paths!).flatMap(([path, item]) =>
    (["get", "put", "post", "delete"] as const).filter((method) => item[method]).map((method) => `${method} ${path}`),
  );
  // A new operation fails this test until a call above covers it.
  expect([...checked].sort()).toEqual(documented.sort());
});
