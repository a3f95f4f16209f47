import { connect, Socket } from "node:net";
import { join } from "node:path";
import { serverUrl, testServer, useTestServer } from "herald/testing";
import { call } from "./support/http";
import { readHttpSettings } from "../../src/transports/http/settings";

/** Clients that send a request slowly, or not at all: each is cut off with 408 and its socket closed. */
useTestServer({
  appDir: join(__dirname, "fixtures/app"),
  env: { REDIS_URL: "", HTTP_HEADERS_TIMEOUT: "400", HTTP_REQUEST_TIMEOUT: "800", LOG_LEVEL: "fatal" },
});

/** Opens a raw TCP connection to the server, writes `text`, and resolves with all it read until the server closed it. */
function sendAndWaitForClose(text: string): Promise<string> {
  const { hostname, port } = new URL(serverUrl());
  return new Promise((resolve, reject) => {
    let received = "";
    const socket: Socket = connect(Number(port), hostname, () => socket.write(text));
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
  });
}

test("by default a request head must arrive within a minute and a whole request within five", () => {
  const defaults = readHttpSettings({ raw: {} });
  expect(defaults).toMatchObject({ headersTimeout: 60_000, requestTimeout: 300_000 });
  expect(() => readHttpSettings({ raw: { HTTP_HEADERS_TIMEOUT: "2000", HTTP_REQUEST_TIMEOUT: "1000" } })).toThrow(/HTTP_HEADERS_TIMEOUT/);
});

test("the web server runs with the configured timeouts", () => {
  const listener = testServer().httpServer!;
  expect(listener.headersTimeout).toBe(400);
  expect(listener.requestTimeout).toBe(800);
});

test("a client that never finishes its request head gets 408 and is disconnected", async () => {
  const answer = await sendAndWaitForClose("GET /api/plain HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
});

test("a client that never finishes its body gets 408 and is disconnected", async () => {
  const answer = await sendAndWaitForClose(
    'POST /api/jobs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"params":',
  );
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
});

test("meanwhile, clients that send promptly are served", async () => {
  expect(await call(`${serverUrl()}/api/plain?text=prompt`)).toMatchObject({ status: 200, body: { text: "prompt" } });
});
