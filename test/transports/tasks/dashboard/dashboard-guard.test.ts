import { request, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { createHerald, type HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer } from "herald/testing";
import { jsonLogs } from "../../../support/json-logs";
import { rpc } from "../../mcp/support/raw-rpc";

const fixtures = join(__dirname, "../../../fixtures/apps");
/** `tasksDashboard: true`: no admin check. */
const openApp = join(fixtures, "tasks-dashboard-open");
/** `tasksDashboard: { adminCheck: RequireOperatorKey }`. */
const keyedApp = join(fixtures, "tasks-dashboard");
const OPERATOR_KEY = "operator-key-of-the-dashboard-tests";
const PRODUCTION = { NODE_ENV: "production", HOST: "127.0.0.1", SESSION_SECRET: "tasks-dashboard-test-secret-of-32-characters" };

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request sent as written: fetch will not send another `Host`. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const sent = request(url, { method: options.method ?? "GET", headers: { ...(body ? { "content-type": "application/json" } : {}), ...options.headers } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

const errorOf = (answer: Answer) => (JSON.parse(answer.body) as { error: { type: string; message: string } }).error;

describe("without an admin check, outside production: callers on this machine only", () => {
  let server: HeraldServer;
  beforeAll(async () => {
    server = await startTestServer({ appDir: openApp, env: { REDIS_URL: "", LOG_LEVEL: "fatal" } });
  }, HOOK_TIMEOUT);
  afterAll(() => server?.stop(), HOOK_TIMEOUT);

  test("answers a caller on this machine", async () => {
    const answer = await send(`${server.url}/api/tasks/overview`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ queues: [{ queue: "work", waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 }], schedules: [] });
  });

  test("refuses a call that came through a proxy, or that names another host (a rebound DNS name)", async () => {
    const refusals = await Promise.all([
      send(`${server.url}/api/tasks/overview`, { headers: { "x-forwarded-for": "203.0.113.7" } }),
      send(`${server.url}/api/tasks/overview`, { headers: { forwarded: "for=203.0.113.7" } }),
      send(`${server.url}/api/tasks/overview`, { headers: { host: "evil.example" } }),
      send(`${server.url}/api/tasks/retry`, { method: "POST", headers: { host: `evil.example:${new URL(server.url!).port}` }, body: { queue: "work", jobId: "x" } }),
    ]);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(403);
      expect(errorOf(refusal)).toMatchObject({ type: "CONNECTION_FORBIDDEN", message: expect.stringContaining("tasksDashboard.adminCheck") });
    }
    const local = await send(`${server.url}/api/tasks/overview`, { headers: { host: `localhost:${new URL(server.url!).port}` } });
    expect(local.status).toBe(200);
  });

  test("MCP has the same, as a tool", async () => {
    const answer = await rpc(`${server.url}/mcp`, "tools/call", { name: "tasks-overview", arguments: {} });
    expect(answer.result).toMatchObject({ structuredContent: { queues: [{ queue: "work", completed: 0 }], schedules: [] } });
  });

  test("serves the page at TASKS_DASHBOARD_PATH's default, with its script as a file under the default Content-Security-Policy", async () => {
    const page = await send(`${server.url}/admin/tasks`);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toMatch(/script-src 'self'/);
    expect(page.body).toContain('<script src="/admin/tasks/dashboard.js"></script>');
    expect(page.body).not.toMatch(/<script>|<script(?![^>]*\ssrc=)[^>]*>/);
    expect(page.body).toContain('data-api="/api"');
    // No admin check asks for a credential.
    expect(page.body).not.toContain("data-credential-header");

    const script = await send(`${server.url}/admin/tasks/dashboard.js`);
    expect(script).toMatchObject({ status: 200, headers: { "content-type": "text/javascript; charset=utf-8" } });
    expect(script.body).toContain("textContent");
    expect(script.body).not.toContain("innerHTML");
    expect((await send(`${server.url}/admin/tasks/dashboard.css`)).status).toBe(200);
    expect((await send(`${server.url}/admin/tasks/other.js`)).status).toBe(404);
    expect((await send(`${server.url}/admin/tasks`, { method: "POST", headers: { origin: server.url! } })).status).toBe(405);
  });
});

describe("in production", () => {
  test("without an admin check the dashboard is off: no actions, no page, and the boot says why", async () => {
    const logs = jsonLogs();
    const server = await startTestServer({ appDir: openApp, env: { REDIS_URL: "", LOG_FORMAT: "json", LOG_LEVEL: "warn", ...PRODUCTION }, logDestination: logs.stream });
    try {
      expect(server.registry.list().map((entry) => entry.name).filter((name) => name.startsWith("tasks:") && name !== "tasks:watch")).toEqual([]);
      expect((await send(`${server.url}/api/tasks/overview`)).status).toBe(404);
      expect((await send(`${server.url}/admin/tasks`)).status).toBe(404);
      expect(logs.lines).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining("the tasks dashboard is off: in production it needs an admin check") }));
    } finally {
      await server.stop();
    }
  });

  test("with an admin check it is on, at TASKS_DASHBOARD_PATH, and the page asks for the check's header", async () => {
    const server = await startTestServer({
      appDir: keyedApp,
      env: { REDIS_URL: "", LOG_LEVEL: "fatal", OPERATOR_KEY, TASKS_DASHBOARD_PATH: "/ops/queues", ...PRODUCTION },
    });
    try {
      const page = await send(`${server.url}/ops/queues`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('data-credential-header="x-operator-key"');
      expect(page.body).toContain('<script src="/ops/queues/dashboard.js"></script>');
      expect((await send(`${server.url}/admin/tasks`)).status).toBe(404);
      expect((await send(`${server.url}/api/tasks/overview`)).status).toBe(401);
      expect((await send(`${server.url}/api/tasks/overview`, { headers: { "x-operator-key": OPERATOR_KEY } })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

test("an app that does not ask for the dashboard has none of its actions", async () => {
  const server = await createHerald({ appDir: join(fixtures, "tasks-basic"), env: { NODE_ENV: "test", REDIS_URL: "", LOG_LEVEL: "fatal" } }).load();
  const names = server.registry.list().map((entry) => entry.name);
  for (const name of ["tasks:overview", "tasks:failures", "tasks:retry", "tasks:remove"]) expect(names).not.toContain(name);
});

test("a TASKS_DASHBOARD_PATH that is not a path fails the boot", async () => {
  await expect(createHerald({ appDir: openApp, env: { NODE_ENV: "test", REDIS_URL: "", LOG_LEVEL: "fatal", TASKS_DASHBOARD_PATH: "/" } }).load()).rejects.toMatchObject({
    type: "CONFIG_ERROR",
    message: expect.stringContaining("TASKS_DASHBOARD_PATH"),
  });
});
