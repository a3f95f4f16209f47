/**
 * `npm run soak:floods`: one `herald start` of the sample app (loopback PostgreSQL and Redis) is
 * flooded from one anonymous address (127.0.0.2) while another caller (127.0.0.1) calls
 * `GET /api/status` one call after another, from a thread of its own; for each flood it reports
 * the worst status latency beside the 1 s bound. Exit code 0 when every flood kept it.
 *
 *   websocket  50 sockets, each sending 2,000 `messages:list` at once
 *   bodies     60 concurrent JSON bodies of ~1 MB and ~9,000 values each (within every default limit)
 *
 *   npm run soak:floods -- --flood=bodies --bodies=60 --sockets=50 --messages=2000
 */
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import WebSocket from "ws";
import { freePort } from "../lib/processes";
import { SoakServer } from "./lib/servers";
import { deleteKeys, loopbackServices } from "./lib/services";

const SAMPLE_APP = join(__dirname, "../../sample-app");
/** The address every flood comes from; the status caller keeps 127.0.0.1. */
const ATTACKER = "127.0.0.2";
const STATUS_BOUND_MS = 1_000;
/** However the server answers, a flood stops waiting for it after this long. */
const FLOOD_DEADLINE_MS = 180_000;
const MIB = 1024 ** 2;

function option(name: string, fallback: number): number {
  const raw = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > 100_000) throw new Error(`--${name} must be a whole number from 1 to 100000`);
  return value;
}

/**
 * Calls `url` one call after another until told to stop; posts how long each took, in ms. Its
 * first call (which loads fetch in the thread) is posted apart, as "ready", and is no measure.
 */
const STATUS_PROBE = `
const { parentPort, workerData } = require("node:worker_threads");
let stopping = false;
parentPort.once("message", () => (stopping = true));
(async () => {
  await (await fetch(workerData.url)).arrayBuffer();
  parentPort.postMessage("ready");
  const took = [];
  let failed = 0;
  while (!stopping) {
    const started = performance.now();
    try {
      const response = await fetch(workerData.url);
      await response.arrayBuffer();
      if (response.status !== 200) failed += 1;
    } catch {
      failed += 1;
    }
    took.push(performance.now() - started);
  }
  parentPort.postMessage({ took, failed });
})();`;

interface ProbeResult {
  took: number[];
  failed: number;
}

async function startProbe(url: string): Promise<{ stop(): Promise<ProbeResult> }> {
  const worker = new Worker(STATUS_PROBE, { eval: true, workerData: { url: `${url}/api/status` } });
  const posted = (): Promise<unknown> =>
    new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  await posted();
  const result = posted() as Promise<ProbeResult>;
  return {
    async stop() {
      worker.postMessage("stop");
      const value = await result;
      await worker.terminate();
      return value;
    },
  };
}

function tally(values: Iterable<string | number>): string {
  const counts = new Map<string | number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${value} ×${count}`).join(", ");
}

/** Each socket sends all its `messages:list` at once; resolves when every one was answered or its socket closed. */
async function websocketFlood(url: string, sockets: number, messages: number): Promise<string> {
  const closes: number[] = [];
  const answers: string[] = [];
  const one = () =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws`, { localAddress: ATTACKER });
      let answered = 0;
      const timer = setTimeout(() => ws.terminate(), FLOOD_DEADLINE_MS);
      ws.on("message", (data) => {
        const message = JSON.parse(data.toString()) as { messageId?: string; error?: { type: string } };
        if (message.messageId === undefined) return;
        answers.push(message.error?.type ?? "ok");
        if ((answered += 1) === messages) ws.close();
      });
      ws.on("open", () => {
        for (let index = 0; index < messages; index += 1) {
          ws.send(JSON.stringify({ messageType: "action", messageId: String(index), action: "messages:list", params: {} }));
        }
      });
      ws.on("error", () => undefined);
      ws.on("close", (code) => {
        clearTimeout(timer);
        closes.push(code);
        resolve();
      });
    });
  await Promise.all(Array.from({ length: sockets }, one));
  return `answers: ${tally(answers)}; sockets closed with: ${tally(closes)}`;
}

/** A JSON object of about `bytes`, of 9 objects of 999 keys: 9,000 values, under PARAMS_MAX_KEYS and PARAMS_MAX_VALUES. */
function wideBody(bytes: number): Buffer {
  const groups = 9;
  const keys = 999;
  const valueLength = Math.floor((bytes - 64) / (groups * keys)) - 12;
  const value = "v".repeat(valueLength);
  const group = `{${Array.from({ length: keys }, (_, index) => `"k${String(index).padStart(3, "0")}":"${value}"`).join(",")}}`;
  return Buffer.from(`{"body":"flood","data":{${Array.from({ length: groups }, (_, index) => `"g${index}":${group}`).join(",")}}}`);
}

/** A raw connection from the attacker's address, its answer's status once the server closed it. */
interface RawRequest {
  socket: Socket;
  status: Promise<number | string>;
}

function openRaw(url: string, head: string, first: Buffer): Promise<RawRequest> {
  const { hostname, port } = new URL(url);
  return new Promise((resolveOpen, rejectOpen) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress: ATTACKER });
    const status = new Promise<number | string>((resolve) => {
      let answer = "";
      socket.setTimeout(FLOOD_DEADLINE_MS, () => socket.destroy(new Error("timeout")));
      socket.on("data", (chunk: Buffer) => {
        if (answer.length < 64) answer += chunk.toString("latin1");
      });
      socket.on("close", () => resolve(Number(answer.split(" ")[1]) || "closed without an answer"));
      socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    socket.once("connect", () => {
      socket.write(head);
      socket.write(first, () => resolveOpen({ socket, status }));
    });
    socket.once("error", rejectOpen);
  });
}

function putBody(url: string, body: Buffer): Promise<number | string> {
  const head = `PUT /api/message HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return openRaw(url, head, body).then((request) => request.status);
}

/**
 * Every body is sent but its last byte; once all of them are, the last bytes go together, so
 * that the bodies are complete at once, as an attacker would have them.
 */
async function bodiesFlood(url: string, bodies: number): Promise<string> {
  const body = wideBody(MIB - 4096);
  const head = `PUT /api/message HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  const requests = await Promise.all(Array.from({ length: bodies }, () => openRaw(url, head, body.subarray(0, -1))));
  for (const request of requests) request.socket.write(body.subarray(-1));
  const statuses = await Promise.all(requests.map((request) => request.status));
  return `body of ${(body.length / MIB).toFixed(2)} MiB, 9,000 values, last bytes sent together; answers: ${tally(statuses)}`;
}

interface FloodReport {
  name: string;
  outcome: string;
  seconds: number;
  probe: ProbeResult;
}

async function measure(name: string, url: string, flood: () => Promise<string>): Promise<FloodReport> {
  const probe = await startProbe(url);
  const started = performance.now();
  const outcome = await flood();
  const seconds = (performance.now() - started) / 1000;
  return { name, outcome, seconds, probe: await probe.stop() };
}

function report({ name, outcome, seconds, probe }: FloodReport): boolean {
  const sorted = [...probe.took].sort((a, b) => a - b);
  const worst = sorted.at(-1) ?? Number.NaN;
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  const slowest = sorted.slice(-3).reverse().map((ms) => ms.toFixed(0)).join(", ");
  const held = worst < STATUS_BOUND_MS && probe.failed === 0;
  console.log(`\n${name} flood: ${seconds.toFixed(1)} s; ${outcome}`);
  console.log(
    `  GET /api/status from another address: ${sorted.length} calls, ${probe.failed} not 200, median ${median.toFixed(0)} ms, ` +
      `slowest ${slowest} ms; worst ${worst.toFixed(0)} ms (bound ${STATUS_BOUND_MS} ms): ${held ? "held" : "MISSED"}`,
  );
  return held;
}

async function main(): Promise<number> {
  const which = process.argv.find((arg) => arg.startsWith("--flood="))?.slice(8) ?? "all";
  if (!["all", "websocket", "bodies"].includes(which)) throw new Error("--flood must be websocket, bodies or all");
  const sockets = option("sockets", 50);
  const messages = option("messages", 2_000);
  const bodies = option("bodies", 60);
  const { redisUrl, database } = await loopbackServices();
  const name = `herald-floods-${randomBytes(4).toString("hex")}`;
  const server = new SoakServer("sample app", SAMPLE_APP, await freePort(), { NAME: name, REDIS_URL: redisUrl, DATABASE_URL: database.url });
  const held: boolean[] = [];
  try {
    await server.ready();
    // The first calls load what later ones reuse (the first refusal maps its stack through the
    // source maps, for one); they are no measure of a flood.
    for (let index = 0; index < 20; index += 1) await (await fetch(`${server.url}/api/status`)).arrayBuffer();
    await putBody(server.url, Buffer.from('{"body":"warm-up"}'));
    await websocketFlood(server.url, 1, 10);
    console.log(`floods against the sample app at ${server.url}, from ${ATTACKER}`);
    if (which !== "bodies") {
      held.push(report(await measure(`WebSocket (${sockets} sockets × ${messages} messages:list)`, server.url, () => websocketFlood(server.url, sockets, messages))));
    }
    if (which !== "websocket") {
      held.push(report(await measure(`JSON bodies (${bodies} concurrent)`, server.url, () => bodiesFlood(server.url, bodies))));
    }
    const code = await server.stop();
    if (code !== 0) console.log(`the server exited ${code} on SIGTERM`);
    const errors = server.complaints.filter((line) => !line.startsWith("{") || (JSON.parse(line) as { level: number }).level >= 50);
    if (errors.length) console.log(`the server logged ${errors.length} error(s), first: ${errors[0]!.slice(0, 300)}`);
  } finally {
    server.kill();
    await database.drop().catch((error: Error) => console.error(`could not drop schema ${database.schema}: ${error.message}`));
    await deleteKeys(redisUrl, name).catch((error: Error) => console.error(`could not delete Redis keys ${name}:*: ${error.message}`));
  }
  const passed = held.every(Boolean);
  console.log(passed ? "\nfloods: every status bound held" : "\nfloods: a status bound was MISSED");
  return passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`floods could not run: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
