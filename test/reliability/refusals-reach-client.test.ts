import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { HOOK_TIMEOUT } from "herald/testing";
import { HeraldProcess } from "./support/herald-process";

/**
 * A refusal sent while the client is still uploading must reach the client: closing a socket with
 * unread data resets the connection, and the reset takes the unread answer with it. Real clients
 * (node:http, fetch) upload bodies declared over the limit to a real `herald start` (in another
 * process, as a client meets a server), and every one must read its 413.
 */
const appDir = join(__dirname, "fixtures/app");
const BODY_LIMIT = 64 * 1024;
const DECLARED = 512 * 1024 ** 2;
const TRIES = 6;
let herald: HeraldProcess;

beforeAll(async () => {
  herald = await HeraldProcess.start(appDir, { REDIS_URL: "", HTTP_BODY_LIMIT: String(BODY_LIMIT), LOG_LEVEL: "info" });
}, HOOK_TIMEOUT);

afterAll(() => herald?.kill(), HOOK_TIMEOUT);

const serverUrl = () => herald.url;

/**
 * node:http uploading `DECLARED` bytes as fast as the socket takes them, until the answer comes.
 * Rejects if the connection fails (EPIPE, ECONNRESET) before an answer was read.
 */
function nodeHttpUpload(): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(serverUrl());
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    let answered = false;
    const req = request({ host: hostname, port, method: "POST", path: "/api/publish", headers: { "Content-Type": "application/json", "Content-Length": DECLARED } });
    req.on("response", (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (data: string) => (text += data));
      res.on("end", () => {
        resolve({ status: res.statusCode!, body: JSON.parse(text) });
        req.destroy();
      });
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
    let sent = 0;
    const pump = () => {
      while (!answered && !req.destroyed && sent < DECLARED) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
    };
    pump();
  });
}

/** A raw socket: sends `head`, then whatever `body` gives, and collects what comes back. */
function rawExchange(head: string, options: { sendBody?: (socket: Socket) => void; until: (received: string) => boolean }): Promise<string> {
  const { hostname, port } = new URL(serverUrl());
  return new Promise((resolve, reject) => {
    let received = "";
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      options.sendBody?.(socket);
    });
    socket.on("data", (data) => {
      received += data.toString("latin1");
      if (options.until(received)) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => reject(new Error(`closed after ${JSON.stringify(received)}`)));
  });
}

test("node:http clients, still uploading bodies declared over the limit, sixteen at once, read their 413 every time", async () => {
  for (let round = 0; round < 3; round += 1) {
    const answers = await Promise.all(Array.from({ length: 16 }, () => nodeHttpUpload()));
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(answer.body.error.type).toBe("CONNECTION_PAYLOAD_TOO_LARGE");
    }
  }
}, 60_000);

test("fetch, sending a declared body over the limit, reads its 413 every time", async () => {
  const body = Buffer.alloc(32 * 1024 ** 2, "a");
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const response = await fetch(`${serverUrl()}/api/publish`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    expect(response.status).toBe(413);
    expect((await response.json()).error.type).toBe("CONNECTION_PAYLOAD_TOO_LARGE");
  }
}, 60_000);

test("Expect: 100-continue with a length over the limit is answered 413, never 100 Continue", async () => {
  const received = await rawExchange(
    `POST /api/publish HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${DECLARED}\r\nExpect: 100-continue\r\n\r\n`,
    { until: (text) => text.includes("\r\n\r\n") },
  );
  expect(received).toMatch(/^HTTP\/1\.1 413 /);
  expect(received).not.toContain("100 Continue");
});

test("Expect: 100-continue with a length within the limit is invited, then answered", async () => {
  const body = JSON.stringify({ channel: "news", message: "hi" });
  let continued = false;
  const received = await rawExchange(
    `POST /api/publish HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    {
      until: (text) => {
        if (!continued && text.startsWith("HTTP/1.1 100 Continue\r\n\r\n")) {
          continued = true;
          return false;
        }
        return continued && /\r\n\r\n[\s\S]*\r\n\r\n/.test(text);
      },
      sendBody: (socket) => socket.once("data", () => socket.write(body)),
    },
  );
  expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 (?!413)\d{3} /);
});

test("a client still uploading that reads its answer only three seconds later (a loaded machine) finds the 413, not a reset", async () => {
  const { hostname, port } = new URL(serverUrl());
  const chunk = Buffer.alloc(64 * 1024, "a");
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = "";
    socket.on("error", (error) => reject(new Error(`${(error as NodeJS.ErrnoException).code} before the answer was read`)));
    socket.on("connect", () => {
      socket.write(`POST /api/publish HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${DECLARED}\r\n\r\n`);
      // Goes on uploading, at a pace that leaves most of the declared body unsent, and looks at what came back only
      // later, as a client whose loop is busy (or whose process stalled) does. It never sends more than it declared:
      // bytes past the declared body would be parsed as a next request, and a malformed one ends the connection.
      let sent = 0;
      const upload = setInterval(() => {
        if (socket.destroyed || sent + chunk.length > DECLARED) return clearInterval(upload);
        sent += chunk.length;
        socket.write(chunk);
      }, 5);
      socket.pause();
      setTimeout(() => {
        socket.on("data", (data) => {
          received += data.toString("latin1");
          if (received.includes("\r\n\r\n")) {
            clearInterval(upload);
            socket.destroy();
            resolve(received);
          }
        });
        socket.resume();
      }, 3_000);
    });
  });
  expect(answer).toMatch(/^HTTP\/1\.1 413 /);
});
