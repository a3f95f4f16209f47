import { connect, Socket } from "node:net";
import { serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import { HTTP_APP } from "../transports/http/fixture";

/**
 * Large bodies that arrive together take turns at being parsed (src/transports/http/parse-queue.ts):
 * one such body a turn of the event loop, the others waiting, up to HTTP_PARSE_QUEUE_LIMIT bytes
 * waiting; past it 503 with Retry-After. The bodies are chunked and all sent but their last
 * chunk; once the server has read all of it, the last chunks of all of them are written in one
 * synchronous run, so the server (in this same process) finds every body complete in one read of
 * its sockets: which bodies wait, and what is answered first, follows from the order of events,
 * not from timing.
 */
const BODY_BYTES = 100_000;
/** Four such bodies may wait while one is parsed; a fifth waiting one is refused. */
const QUEUE_LIMIT = 4.5 * BODY_BYTES;

useTestServer({ appDir: HTTP_APP, env: { HTTP_PARSE_QUEUE_LIMIT: String(QUEUE_LIMIT), LOG_LEVEL: "fatal" } });

interface Answer {
  label: string;
  status: number;
  head: string;
  body: string;
}

/** A client's end of a raw connection: what it still has to send, and its answer once the server closed the connection. */
interface PendingRequest {
  label: string;
  socket: Socket;
  rest: string;
  answer: Promise<Answer>;
}

const serverSockets: Socket[] = [];
const recordSocket = (socket: Socket) => serverSockets.push(socket);
beforeEach(() => {
  serverSockets.length = 0;
  testServer().httpServer!.on("connection", recordSocket);
});
afterEach(() => void testServer().httpServer!.off("connection", recordSocket));

function jsonBody(): string {
  const prefix = '{"text":"';
  return `${prefix}${"a".repeat(BODY_BYTES - prefix.length - 2)}"}`;
}

/**
 * Opens a connection and sends `first`; `rest` is sent later by `sendRests`. `arrivals` gets the
 * label when the first byte of the answer arrives.
 */
function openRequest(label: string, first: string, rest: string, arrivals: string[]): Promise<PendingRequest> {
  const { hostname, port } = new URL(serverUrl());
  return new Promise((resolveOpen, rejectOpen) => {
    const socket = connect(Number(port), hostname);
    const answer = new Promise<Answer>((resolve, reject) => {
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => {
        if (text === "") arrivals.push(label);
        text += chunk;
      });
      socket.on("end", () => {
        const split = text.indexOf("\r\n\r\n");
        resolve({ label, status: Number(text.split(" ")[1]), head: text.slice(0, split), body: text.slice(split + 4) });
      });
      socket.on("error", reject);
    });
    socket.once("connect", () => socket.write(first, () => resolveOpen({ label, socket, rest, answer })));
    socket.once("error", rejectOpen);
  });
}

function bigBody(label: string, arrivals: string[]): Promise<PendingRequest> {
  const body = jsonBody();
  const head = `POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  return openRequest(label, `${head}${body.length.toString(16)}\r\n${body}\r\n`, "0\r\n\r\n", arrivals);
}

function smallRequest(label: string, arrivals: string[]): Promise<PendingRequest> {
  return openRequest(label, "", "GET /api/echo?small=yes HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", arrivals);
}

/** Waits until the server has read all that was sent so far, then sends every rest in one synchronous run. */
async function sendRests(requests: PendingRequest[]): Promise<Answer[]> {
  const sent = requests.map((request) => request.socket.bytesWritten);
  await waitFor(() => {
    const read = serverSockets.map((socket) => socket.bytesRead).sort((a, b) => a - b);
    return read.length === requests.length && read.join() === [...sent].sort((a, b) => a - b).join();
  });
  for (const request of requests) request.socket.write(request.rest);
  return Promise.all(requests.map((request) => request.answer));
}

test("large bodies past the queue's bound are refused 503 with Retry-After; the others are all parsed", async () => {
  const arrivals: string[] = [];
  const requests = await Promise.all(Array.from({ length: 8 }, (_, index) => bigBody(`big ${index}`, arrivals)));
  const answers = await sendRests(requests);

  const parsed = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status !== 200);
  // One parsed at once, four waiting their turn (400 kB of the 450 kB bound), three finding no room.
  expect(parsed).toHaveLength(5);
  for (const answer of parsed) expect(JSON.parse(answer.body).params.text.length).toBe(BODY_BYTES - 11);
  expect(refused).toHaveLength(3);
  for (const answer of refused) {
    expect(answer.status).toBe(503);
    expect(answer.head).toMatch(/^retry-after: 1$/im);
    expect(JSON.parse(answer.body).error).toMatchObject({ type: "CONNECTION_SERVICE_BUSY", key: "body", value: { retryAfter: 1 } });
  }
}, 60_000);

test("large bodies within the queue's bound are all parsed", async () => {
  const arrivals: string[] = [];
  const requests = await Promise.all(Array.from({ length: 5 }, (_, index) => bigBody(`big ${index}`, arrivals)));
  const answers = await sendRests(requests);
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
}, 60_000);

test("a request without a body is answered between the parses, before the last of them", async () => {
  const arrivals: string[] = [];
  const requests = await Promise.all(Array.from({ length: 5 }, (_, index) => bigBody(`big ${index}`, arrivals)));
  requests.push(await smallRequest("small", arrivals));
  const answers = await sendRests(requests);

  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
  expect(arrivals).toHaveLength(6);
  expect(arrivals.indexOf("small")).toBeLessThan(arrivals.length - 1);
}, 60_000);

test("a declared length the queue has no room for is refused before its body is sent", async () => {
  const arrivals: string[] = [];
  const requests = await Promise.all(Array.from({ length: 8 }, (_, index) => bigBody(`big ${index}`, arrivals)));
  const declared = 4 * BODY_BYTES;
  const late = await openRequest("late", "", "", arrivals);
  // Sent as the first answers arrive, one turn after the bodies were complete: three of the four waiting ones still wait.
  const sendLateHead = () =>
    late.socket.write(`POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\nConnection: close\r\n\r\n`);
  let lateSent = false;
  for (const request of requests) {
    request.socket.once("data", () => {
      if (!lateSent) sendLateHead();
      lateSent = true;
    });
  }
  const answers = await sendRests([...requests, late]);
  const lateAnswer = answers.at(-1)!;
  expect(lateAnswer.status).toBe(503);
  expect(lateAnswer.head).toMatch(/^retry-after: 1$/im);
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
}, 60_000);
