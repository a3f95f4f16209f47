import { connect } from "node:net";
import { waitFor } from "herald/testing";
import { call } from "../reliability/support/http";
import { readCompose } from "./support/compose";
import { useComposeTopology } from "./support/compose-topology";

/**
 * compose.yaml's topology, run without containers (docs/deployment.md#compose): its services as
 * processes on this machine with the command arguments and environment compose gives each, so the
 * file is held true in every test run, where no container engine is; deploy/compose-check.sh
 * builds the image and runs the file in Docker where there is one.
 */
const topology = useComposeTopology("compose");

/** Whether something listens on a loopback port. */
function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

test("the file runs two web services and a task worker of the repository's image, one PostgreSQL, one Redis and HAProxy", () => {
  expect(topology.servicesOf("herald")).toEqual(["web1", "web2", "worker"]);
  expect(topology.balanced).toEqual(["web1", "web2"]);
  expect(topology.servicesOf("postgres")).toEqual(["postgres"]);
  expect(topology.servicesOf("redis")).toEqual(["redis"]);
  expect(topology.servicesOf("haproxy")).toEqual(["haproxy"]);
});

test("every secret the services need is required: the file does not interpolate without it, or with it empty", () => {
  const secrets = Object.keys(topology.variables).filter((name) => name !== "PUBLIC_URL");
  expect(secrets.sort()).toEqual(["MCP_REQUEST_STATE_KEY", "OAUTH_COOKIE_SECRETS", "OAUTH_JWKS", "POSTGRES_PASSWORD", "SESSION_SECRET", "TASKS_WATCH_KEY"]);
  for (const name of secrets) {
    for (const missing of [undefined, ""]) {
      expect(() => readCompose({ ...topology.variables, [name]: missing })).toThrow(`required variable ${name} is missing a value`);
    }
  }
  // Each Herald process gets the one value of each: they are one app.
  for (const name of topology.servicesOf("herald")) {
    for (const secret of secrets.filter((secret) => secret !== "POSTGRES_PASSWORD")) {
      expect(topology.services[name]!.environment[secret]).toBe(topology.variables[secret]);
    }
  }
  // Only the secrets: the public address has a default.
  const { PUBLIC_URL: _unset, ...withoutPublicUrl } = topology.variables;
  expect(readCompose(withoutPublicUrl).web1!.environment.PUBLIC_URL).toBe("http://localhost:8080");
});

test("the Herald services reach PostgreSQL as the user, with the password and in the database the postgres service creates", () => {
  // Checked here because the run below gives them this machine's PostgreSQL instead.
  const postgres = topology.services.postgres!.environment;
  for (const name of topology.servicesOf("herald")) {
    const url = new URL(topology.services[name]!.environment.DATABASE_URL!);
    expect([url.hostname, url.port, url.username, decodeURIComponent(url.password), url.pathname]).toEqual([
      "postgres",
      "5432",
      postgres.POSTGRES_USER,
      postgres.POSTGRES_PASSWORD,
      `/${postgres.POSTGRES_DB}`,
    ]);
  }
});

test("requests through the balancer reach both web services, and /readyz answers 200 through it", async () => {
  expect((await call(`${topology.url}/readyz`)).status).toBe(200);
  const served = () => topology.balanced.every((name) => topology.herald[name]!.lines("action", { action: "status" }).length > 0);
  const statuses: number[] = [];
  // A request at each poll: the log lines come through each process's own pipe, read when they arrive.
  await waitFor(async () => {
    statuses.push((await call(`${topology.url}/api/status`)).status);
    return served();
  });
  expect(new Set(statuses)).toEqual(new Set([200]));
});

test("a task job queued beside the services runs, and what it did shows through the balancer", async () => {
  const email = "compose@example.com";
  const password = "correct horse battery";
  expect((await call(`${topology.url}/api/user`, { method: "PUT", body: { name: "Compose", email, password } })).status).toBe(200);
  const signIn = await call(`${topology.url}/api/session`, { method: "PUT", body: { email, password } });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
  expect((await call(`${topology.url}/api/message`, { method: "PUT", body: { body: "to be cleaned up" }, headers: { cookie } })).status).toBe(200);
  expect((await call(`${topology.url}/api/messages/list`)).body.pagination.total).toBe(1);

  // The sample app's one task, messages:cleanup, is open to the task workers and the CLI alone, not
  // to HTTP: queued as `docker compose exec worker node dist/cli-entry.js tasks enqueue` does.
  const enqueued = await topology.exec("worker", ["tasks", "enqueue", "messages:cleanup", "--params", JSON.stringify({ age: 0 }), "-q"]);
  expect(enqueued).toMatchObject({ code: 0 });
  const { jobId } = JSON.parse(enqueued.stdout).response as { jobId: string };

  const ran = () => Object.values(topology.herald).filter((herald) => herald.lines("action", { action: "messages:cleanup", jobId }).length > 0);
  await waitFor(() => ran().length > 0, { timeout: 20_000 });
  expect(ran()).toHaveLength(1);
  await waitFor(async () => (await call(`${topology.url}/api/messages/list`)).body.pagination.total === 0);
});

test("the worker serves no HTTP: nothing listens on the port its image names, and the balancer does not send it requests", async () => {
  const worker = topology.herald.worker!;
  expect(worker.lines("server started")[0]).toMatchObject({ runMode: "workers" });
  expect(worker.url).toBeFalsy();
  expect(await listens(topology.port("worker", topology.services.worker!.environment.PORT!))).toBe(false);
  expect(topology.balanced).not.toContain("worker");
  // The web services do listen on theirs: the check above is not blind.
  for (const name of topology.balanced) expect(await listens(topology.port(name, topology.services[name]!.environment.PORT!))).toBe(true);
});
