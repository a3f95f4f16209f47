import { createClient } from "herald/client";
import { serverUrl, useTestServer } from "herald/testing";
import type { AppActions } from "../../sample-app/herald-client";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { SAMPLE_APP, truncateAll } from "../sample-app/support/app";
import { expectUserCreateErrors } from "./support/user-create-errors";
import { TEST_REDIS_URL, useTestRedis } from "../support/redis";

/**
 * herald/client against the real sample app over HTTP, on a real PostgreSQL and a real Redis
 * (sessions and rate limits there), under a NAME of this run's own, from which every Redis prefix derives.
 */
const postgres = usePostgresSchema("client_http");
const { prefix } = useTestRedis("client-http");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, REDIS_URL: TEST_REDIS_URL, NAME: `${prefix}app` } });
beforeEach(truncateAll);

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };

/** A client whose fetch is counted by path, to see what it asks the server. */
function countedClient() {
  const asked: string[] = [];
  const client = createClient<AppActions>({
    url: serverUrl(),
    fetch: (input, init) => {
      asked.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    },
  });
  return { client, asked };
}

test("a call goes to the action's own route and method, and resolves with what it returned", async () => {
  const { client, asked } = countedClient();
  const { user } = await client.call("user:create", ada);
  expect(user).toEqual({ id: expect.any(Number), name: ada.name, email: ada.email, created_at: expect.any(String), updated_at: expect.any(String) });
  await client.call("session:create", { email: ada.email, password: ada.password });
  const viewed = await client.call("user:view", { user: user.id });
  expect(viewed.user.name).toBe(ada.name);
  expect(asked).toEqual(["GET /api/routes.json", "PUT /api/user", "PUT /api/session", `GET /api/user/${user.id}`]);
});

test("the session cookie is kept between calls outside a browser, and forgotten on request", async () => {
  const { client } = countedClient();
  await client.call("user:create", ada);
  await client.call("session:create", { email: ada.email, password: ada.password });
  expect((await client.call("session:view")).user.email).toBe(ada.email);

  const { message } = await client.call("message:create", { body: "Hello from the client" });
  const page = await client.call("messages:list", { limit: 5 });
  expect(page.messages.map((listed) => listed.id)).toEqual([message.id]);
  expect(page.pagination).toMatchObject({ limit: 5, page: 1, total: 1 });

  client.forgetSession();
  await expect(client.call("session:view")).rejects.toMatchObject({ name: "HeraldClientError", type: "CONNECTION_NOT_AUTHENTICATED", status: 401 });
});

test("signing out drops the cookie the server expired", async () => {
  const { client } = countedClient();
  await client.call("user:create", ada);
  await client.call("session:create", { email: ada.email, password: ada.password });
  await client.call("session:destroy");
  await expect(client.call("session:view")).rejects.toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED" });
});

test("an error the server answers rejects as a HeraldClientError, narrowed by errorOf to the action's declared errors", async () => {
  const { client } = countedClient();
  await expectUserCreateErrors(client, (user) => client.call("user:create", user), ada);
  expect(client.errorOf("user:create", new Error("not from a call"))).toBeUndefined();
});

test("an aborted call rejects with the signal's reason and sends nothing more", async () => {
  const { client, asked } = countedClient();
  await client.call("status");
  const controller = new AbortController();
  controller.abort(new Error("changed my mind"));
  await expect(client.call("status", {}, { signal: controller.signal })).rejects.toThrow("changed my mind");
  expect(asked.filter((line) => line === "GET /api/status")).toHaveLength(1);
});

test("a param the route needs is asked for before anything is sent", async () => {
  const { client, asked } = countedClient();
  await expect(client.call("user:view", {} as never)).rejects.toThrow(new TypeError("user:view: its route needs the param(s) user"));
  expect(asked).toEqual(["GET /api/routes.json"]);
});

test("an action the server does not serve over HTTP is refused by name", async () => {
  const { client } = countedClient();
  await expect(client.call("messages:cleanup" as never, {} as never)).rejects.toThrow(new TypeError("messages:cleanup: the server serves no HTTP route for this action"));
});

test("headers of the client and of one call are sent", async () => {
  const seen: Headers[] = [];
  const client = createClient<AppActions>({
    url: serverUrl(),
    headers: () => ({ "x-request-id": "from-client" }),
    fetch: (input, init) => {
      seen.push(new Headers(init?.headers));
      return fetch(input, init);
    },
  });
  await client.call("status", {}, { headers: { "x-request-id": "from-call" } });
  expect(seen.at(-1)!.get("x-request-id")).toBe("from-call");
  await client.call("status");
  expect(seen.at(-1)!.get("x-request-id")).toBe("from-client");
});

test("the server serves herald/client's browser modules at /herald/client/, revalidated on each load", async () => {
  const response = await fetch(`${serverUrl()}/herald/client/index.js`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^(text|application)\/javascript/);
  expect(response.headers.get("cache-control")).toBe("public, max-age=0");
  expect(await response.text()).toContain('export { createClient } from "./create-client.js";');
  expect((await fetch(`${serverUrl()}/herald/client/create-client.js`)).status).toBe(200);
  expect((await fetch(`${serverUrl()}/herald/client/missing.js`)).status).toBe(404);
});
