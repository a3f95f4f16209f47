import { request, type IncomingMessage } from "node:http";
import { connect, Socket } from "node:net";
import { join } from "node:path";
import { connect as connectTls } from "node:tls";
import WebSocket from "ws";
import { HOOK_TIMEOUT, serverUrl, startTestServer, testServer, useTestServer, waitFor } from "herald/testing";
import { WsClient } from "./support/ws-client";
import { useSelfSignedCertificate } from "../support/self-signed-certificate";
import { readHttpSettings } from "../../src/transports/http/settings";

/** One address may hold HTTP_MAX_CONNECTIONS_PER_ADDRESS sockets; the next is answered 429 and closed unread. */
const CAP = 3;
const appDir = join(__dirname, "fixtures/app");
useTestServer({ appDir, env: { REDIS_URL: "", HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(CAP), LOG_LEVEL: "fatal" } });

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

function parseAnswer(text: string): RawAnswer {
  const [head = "", body = ""] = text.split("\r\n\r\n", 2);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  return { status: Number(statusLine.split(" ")[1]), headers, body: body ? JSON.parse(body) : undefined };
}

/** A raw keep-alive TCP client from 127.0.0.1, so the test decides exactly how many sockets are open. */
class RawClient {
  private received = "";
  readonly closed: Promise<string>;

  private constructor(private readonly socket: Socket) {
    socket.on("data", (chunk) => (this.received += chunk.toString()));
    socket.on("error", () => undefined);
    this.closed = new Promise((resolve) => socket.once("close", () => resolve(this.received)));
  }

  static open(url = serverUrl(), secure = false): Promise<RawClient> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket: Socket = secure
        ? connectTls({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => resolve(new RawClient(socket)))
        : connect(Number(port), hostname, () => resolve(new RawClient(socket)));
      socket.once("error", reject);
    });
  }

  /** Sends one GET and resolves with its answer; the socket stays open unless the server closes it. */
  get(path: string): Promise<RawAnswer> {
    this.received = "";
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    return new Promise((resolve) => {
      const check = () => {
        const end = this.received.indexOf("\r\n\r\n");
        const length = /content-length: (\d+)/i.exec(this.received)?.[1];
        if (end < 0 || length === undefined || Buffer.byteLength(this.received) < end + 4 + Number(length)) return;
        this.socket.off("data", check);
        this.socket.off("close", check);
        resolve(parseAnswer(this.received));
      };
      this.socket.on("data", check);
      this.socket.on("close", check);
    });
  }

  /**
   * Sends the start of a request head and no more: the socket is no longer idle, so the server's
   * keep-alive timeout (5 s) cannot close it during a long test; its headers timeout applies instead.
   */
  startRequestHead(): void {
    this.socket.write("GET /api/plain HTTP/1.1\r\nHost: localhost\r\n");
  }

  close(): Promise<string> {
    this.socket.destroy();
    return this.closed;
  }
}

function expectRefusal(answer: RawAnswer): void {
  expect(answer.status).toBe(429);
  expect(answer.headers).toMatchObject({ connection: "close", "retry-after": "1", "content-type": "application/json; charset=utf-8" });
  expect(answer.body.error).toMatchObject({ type: "CONNECTION_RATE_LIMITED", value: { limit: CAP } });
  expect(answer.body.error.message).toMatch(/Too many connections from this address/);
}

/** A socket proven accepted by a served request, polling while the server still counts sockets closed just before. */
async function acceptedConnection(url?: string, secure?: boolean): Promise<RawClient> {
  let accepted: RawClient | undefined;
  await waitFor(async () => {
    const client = await RawClient.open(url, secure);
    if ((await client.get("/api/plain?text=held")).status === 200) accepted = client;
    return accepted !== undefined;
  });
  return accepted!;
}

async function holdConnections(count: number, url?: string, secure?: boolean): Promise<RawClient[]> {
  const held: RawClient[] = [];
  for (let index = 0; index < count; index += 1) held.push(await acceptedConnection(url, secure));
  return held;
}

/** A request on a fresh socket: the answer, then the server must close the socket. */
async function requestOnFreshSocket(url?: string, secure?: boolean): Promise<{ answer: RawAnswer; closedByServer: Promise<string> }> {
  const client = await RawClient.open(url, secure);
  return { answer: await client.get("/api/plain?text=over"), closedByServer: client.closed };
}

test("by default one address may hold 256 connections; 0 lifts the cap; a negative number fails the boot", () => {
  expect(readHttpSettings({ raw: {} }).maxConnectionsPerAddress).toBe(256);
  expect(readHttpSettings({ raw: { HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0" } }).maxConnectionsPerAddress).toBe(0);
  expect(() => readHttpSettings({ raw: { HTTP_MAX_CONNECTIONS_PER_ADDRESS: "-1" } })).toThrow(/HTTP_MAX_CONNECTIONS_PER_ADDRESS/);
});

describe("with the cap reached", () => {
  let held: RawClient[] = [];
  beforeEach(async () => {
    held = await holdConnections(CAP);
  });
  afterEach(async () => {
    await Promise.all(held.map((client) => client.close()));
  });

  test("the next connection gets 429 with the error body and is closed, its request unread", async () => {
    const served: string[] = [];
    const recordRequest = (request: IncomingMessage) => served.push(request.url ?? "");
    testServer().httpServer!.on("request", recordRequest);
    try {
      const { answer, closedByServer } = await requestOnFreshSocket();
      expectRefusal(answer);
      await closedByServer;
      // A round trip on an accepted socket, so a request the server had read would show by now.
      expect((await held[0]!.get("/api/plain?text=after")).status).toBe(200);
      expect(served).toEqual(["/api/plain?text=after"]);
    } finally {
      testServer().httpServer!.off("request", recordRequest);
    }
  });

  test("a refused client that keeps sending is still disconnected", async () => {
    const { hostname, port } = new URL(serverUrl());
    // Half-open, so it goes on writing after the server's answer ends the server's side.
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    socket.on("error", () => undefined);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    const trickle = setInterval(() => socket.writable && socket.write("X-Slow: still here\r\n"), 100);
    socket.write("GET /api/plain HTTP/1.1\r\nHost: localhost\r\n");
    await closed;
    clearInterval(trickle);
  }, HOOK_TIMEOUT);

  test("refused clients still uploading large bodies, sixteen at once, read their 429 every time", async () => {
    const { hostname, port } = new URL(serverUrl());
    const upload = () => new Promise<{ status: number; body: any }>((resolve, reject) => {
      const chunk = Buffer.alloc(64 * 1024, "a");
      const total = 512 * 1024 ** 2;
      let answered = false;
      let sent = 0;
      const req = request({ host: hostname, port, method: "POST", path: "/api/plain", headers: { "Content-Length": total } });
      req.on("response", (res) => {
        answered = true;
        let text = "";
        res.on("data", (data: Buffer) => (text += data.toString()));
        res.on("end", () => {
          resolve({ status: res.statusCode!, body: JSON.parse(text) });
          req.destroy();
        });
      });
      // Before the fix, about half of these ended in EPIPE or ECONNRESET, the answer unread.
      req.on("error", (error) => (answered ? undefined : reject(error)));
      const pump = () => {
        while (!answered && !req.destroyed && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
      };
      pump();
    });
    // On a busy machine the rounds can outlast the keep-alive timeout of the held sockets.
    for (const client of held) client.startRequestHead();
    for (let round = 0; round < 3; round += 1) {
      for (const answer of await Promise.all(Array.from({ length: 16 }, upload))) {
        expect(answer.status).toBe(429);
        expect(answer.body.error.type).toBe("CONNECTION_RATE_LIMITED");
      }
    }
  }, HOOK_TIMEOUT);

  test("the connections within the cap are still served", async () => {
    await requestOnFreshSocket();
    for (const client of held) expect(await client.get("/api/plain?text=again")).toMatchObject({ status: 200, body: { text: "again" } });
  });

  test("a WebSocket upgrade over the cap is refused the same way", async () => {
    const ws = new WebSocket(`${serverUrl().replace(/^http/, "ws")}/ws`);
    ws.on("error", () => undefined);
    const refusal = await new Promise<RawAnswer>((resolve) => {
      ws.once("unexpected-response", (_request, response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers as Record<string, string>, body: JSON.parse(body) }));
      });
    });
    expectRefusal(refusal);
  });

  test("once some close, the next connection is accepted", async () => {
    const [first, second] = held.splice(0, 2);
    await Promise.all([first!.close(), second!.close()]);
    held.push(await acceptedConnection(), await acceptedConnection());
    expectRefusal((await requestOnFreshSocket()).answer);
  });
});

test("an open WebSocket counts as a connection", async () => {
  const held = await holdConnections(CAP - 1);
  const socket = await WsClient.open(serverUrl());
  expectRefusal((await requestOnFreshSocket()).answer);
  await socket.close();
  await Promise.all(held.map((client) => client.close()));
});

describe("over HTTPS", () => {
  const certificate = useSelfSignedCertificate();

  test("the connection over the cap gets the 429 answer after its handshake", async () => {
    const server = await startTestServer({
      appDir,
      env: {
        REDIS_URL: "",
        HTTP_MAX_CONNECTIONS_PER_ADDRESS: "1",
        ...certificate.env,
        LOG_LEVEL: "fatal",
      },
    });
    try {
      const held = await holdConnections(1, server.url, true);
      const { answer, closedByServer } = await requestOnFreshSocket(server.url, true);
      expect(answer.status).toBe(429);
      expect(answer.body.error).toMatchObject({ type: "CONNECTION_RATE_LIMITED", value: { limit: 1 } });
      await closedByServer;
      await Promise.all(held.map((client) => client.close()));
    } finally {
      await server.stop();
    }
  }, HOOK_TIMEOUT);
});
