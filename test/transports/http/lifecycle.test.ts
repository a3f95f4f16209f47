import { get as httpsGet } from "node:https";
import { createServer } from "node:net";
import { join } from "node:path";
import { RUN_MODE, type HeraldServer } from "herald";
import { startTestServer, waitFor, type TestServerOptions } from "herald/testing";
import { HTTP_APP } from "./fixture";
import { Gate } from "../../fixtures/apps/http-app/services/gate";
import { Probe } from "../../fixtures/apps/http-app/services/probe";
import { jsonLogs } from "../../support/json-logs";
import { useSelfSignedCertificate } from "../../support/self-signed-certificate";

const running: HeraldServer[] = [];
async function boot(options: TestServerOptions = {}): Promise<HeraldServer> {
  const server = await startTestServer({ appDir: HTTP_APP, ...options, env: { LOG_LEVEL: "fatal", ...options.env } });
  running.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

describe("listening", () => {
  test("HTTP_FAST_PATH, a removed setting, is ignored with a warning at boot: actions are answered as ever", async () => {
    const { stream, lines } = jsonLogs();
    const server = await boot({ env: { LOG_LEVEL: "warn", LOG_FORMAT: "json", HTTP_FAST_PATH: "false" }, logDestination: stream });
    expect(lines).toContainEqual(expect.objectContaining({ setting: "HTTP_FAST_PATH", msg: expect.stringMatching(/HTTP_FAST_PATH is no longer read and is ignored/) }));
    expect((await fetch(`${server.url}/api/status`)).status).toBe(200);
  });

  test("PORT=0 binds a free port; server.url and server.httpServer say where", async () => {
    const server = await boot();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toMatch(/:0$/);
    expect(server.httpServer?.listening).toBe(true);
    expect((await fetch(`${server.url}/api/status`)).status).toBe(200);
  });

  test("after stop the port is closed and server.url is cleared", async () => {
    const server = await boot();
    const url = server.url!;
    await server.stop();
    expect(server.url).toBeUndefined();
    expect(server.httpServer).toBeUndefined();
    await expect(fetch(`${url}/api/status`)).rejects.toThrow();
  });

  test("a port already in use fails the start with SERVER_START", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      await expect(boot({ env: { PORT: String(port) } })).rejects.toMatchObject({ type: "SERVER_START" });
    } finally {
      blocker.close();
    }
  });

  test("the web transport does not run in CLI mode", async () => {
    const server = await boot({ runMode: RUN_MODE.cli });
    expect(server.url).toBeUndefined();
  });

  test("HTTP_API_PREFIX moves the actions", async () => {
    const server = await boot({ env: { HTTP_API_PREFIX: "/v2" } });
    expect((await fetch(`${server.url}/v2/status`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/status`)).status).toBe(404);
  });

  test("HTTP_STATIC_MAX_AGE sets the max-age of static files", async () => {
    const server = await boot({ env: { HTTP_STATIC_MAX_AGE: "3600" } });
    expect((await fetch(`${server.url}/css/site.css`)).headers.get("cache-control")).toBe("public, max-age=3600");
  });

  test.each([
    ["HTTP_API_PREFIX", "api/"],
    ["HTTP_API_PREFIX", "/api/"],
    ["HTTP_BODY_LIMIT", "lots"],
    ["HTTP_MAX_FILES", "0"],
    ["HTTP_SHUTDOWN_TIMEOUT", "-1"],
    ["HTTP_TLS_KEY_FILE", undefined],
    ["HTTP_TRUST_PROXY", "not-an-address"],
  ])("an invalid %s fails the boot with CONFIG_ERROR naming it", async (variable, value) => {
    const env = value === undefined ? { HTTP_TLS_CERT_FILE: "/tmp/cert.pem" } : { [variable]: value };
    await expect(boot({ env })).rejects.toMatchObject({ type: "CONFIG_ERROR", key: variable });
  });

  test("a route Express cannot build fails the boot, naming the action", async () => {
    const failure = boot({ appDir: join(__dirname, "../../fixtures/apps/http-invalid-route") });
    await expect(failure).rejects.toMatchObject({ type: "SERVER_INITIALIZATION" });
    await expect(failure).rejects.toThrow(/"files:wildcard"/);
  });
});

describe("graceful stop", () => {
  test("stop refuses new connections, lets a request in flight finish, then closes", async () => {
    const gate = new Gate();
    const probe = new Probe();
    const server = await boot({ providers: [{ token: Gate, useValue: gate }, { token: Probe, useValue: probe }] });
    const url = server.url!;
    const inFlight = fetch(`${url}/api/slow`);
    await waitFor(() => gate.entered === 1);

    const stopping = server.stop();
    await expect(fetch(`${url}/api/small`)).rejects.toThrow();
    gate.release();

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual({ waited: true });
    await stopping;
    expect(probe.aborted).toBe(0);
  });

  test("a request still running after HTTP_SHUTDOWN_TIMEOUT is aborted and its connection closed", async () => {
    const gate = new Gate();
    const probe = new Probe();
    const server = await boot({
      env: { HTTP_SHUTDOWN_TIMEOUT: "50" },
      providers: [{ token: Gate, useValue: gate }, { token: Probe, useValue: probe }],
    });
    const inFlight = fetch(`${server.url}/api/slow`).then(
      (response) => response.status,
      (error: Error) => error,
    );
    await waitFor(() => gate.entered === 1);
    await server.stop();
    expect(String(await inFlight)).toMatch(/fetch failed/);
    expect(probe.aborted).toBe(1);
    expect(probe.reason).toMatchObject({ type: "CONNECTION_SERVICE_UNAVAILABLE", message: "The server is shutting down" });
    gate.release();
  });

  test("an open event stream is ended at stop, without waiting for the shutdown timeout", async () => {
    const probe = new Probe();
    const server = await boot({ env: { HTTP_SHUTDOWN_TIMEOUT: "600000" }, providers: [{ token: Probe, useValue: probe }] });
    const response = await fetch(`${server.url}/api/ticks/forever`);
    const reader = response.body!.getReader();
    await reader.read();
    await server.stop();
    let done = false;
    while (!done) ({ done } = await reader.read());
    expect(probe.aborted).toBe(1);
    await waitFor(() => probe.finished === 1);
  });
});

describe("HTTPS", () => {
  const certificate = useSelfSignedCertificate();

  test("with HTTP_TLS_CERT_FILE and HTTP_TLS_KEY_FILE it serves HTTPS, with HSTS", async () => {
    const server = await boot({ env: certificate.env });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = require("node:fs").readFileSync(certificate.certFile);
    const answer = await new Promise<{ status: number; hsts: unknown; body: string }>((resolve, reject) => {
      httpsGet(`${server.url}/api/small`, { ca }, (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, hsts: response.headers["strict-transport-security"], body }));
      }).on("error", reject);
    });
    expect(answer).toEqual({ status: 200, hsts: "max-age=31536000; includeSubDomains", body: '{"ok":true}' });
  });

  test("behind a trusted proxy, a request forwarded as HTTPS gets HSTS and the client's address", async () => {
    const server = await boot({ env: { HTTP_TRUST_PROXY: "loopback" } });
    const forwarded = { "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9" };
    const response = await fetch(`${server.url}/api/connection`, { headers: forwarded });
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect((await response.json()).remoteAddress).toBe("203.0.113.9");
    const plain = await fetch(`${server.url}/api/small`);
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });

  test("HTTP_TRUST_PROXY=0 trusts no hop: forwarded headers change neither HSTS nor the address", async () => {
    const server = await boot({ env: { HTTP_TRUST_PROXY: "0" } });
    const forwarded = { "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9" };
    const response = await fetch(`${server.url}/api/connection`, { headers: forwarded });
    expect(response.headers.get("strict-transport-security")).toBeNull();
    expect((await response.json()).remoteAddress).toBe("127.0.0.1");
  });
});

describe("logging", () => {
  test("a request is logged once, by the dispatcher, with its request id", async () => {
    const { stream, lines } = jsonLogs();
    const server = await boot({ env: { LOG_LEVEL: "info", LOG_FORMAT: "json" }, logDestination: stream });
    lines.length = 0;
    await fetch(`${server.url}/api/users/7`, { headers: { "X-Request-Id": "log-check-1" } });
    const mentioning = lines.filter((line) => JSON.stringify(line).includes("log-check-1"));
    expect(mentioning).toHaveLength(1);
    expect(mentioning[0]).toMatchObject({ msg: "action", action: "users:get", connection: "web", status: 200, requestId: "log-check-1" });
  });
});
