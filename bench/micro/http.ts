import { openSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { createHerald } from "../../src/herald";
import { RUN_MODE } from "../../src/core/constants";
import type { HeraldServer } from "../../src/core/server";
import { BENCH_APP, heraldEnv } from "../lib/subjects";
import { median } from "../lib/stats";
import { ECHO_PATH, ECHO_QUERY } from "../shared/echo";
import { HELLO_PATH } from "../shared/hello";
import { expressBaseline } from "../shared/express-baseline";
import { fastifyBaseline } from "../shared/fastify-baseline";
import { nodeBaseline } from "../shared/node-baseline";

/**
 * The CPU of one HTTP request (the echo action, or hello world) in one process, server and client
 * together: the bench app on Herald (from src/, compiled by SWC as it loads, so no build is
 * needed), raw Express 5, Fastify 5 (its log goes to stdout: send that to /dev/null) or raw
 * node:http, driven over a loopback socket by a client that pipelines requests in batches
 * (`--batch=1` sends one at a time on each connection, as the full benchmark does). The client's
 * share is the same for every subject, so differences are the servers'; `--cpu-prof` gives a
 * profile without the other processes of the full benchmark.
 *
 *   node -r @swc-node/register bench/micro/http.ts [--subject=herald|fastify|express|node] [--requests=20000] [--repeats=7] [--batch=32] [--connections=4] [--route=echo|hello] [--log-level=info|warn]
 */
function option(name: string, fallback: string): string {
  const given = process.argv.find((argument) => argument.startsWith(`--${name}=`));
  return given ? given.slice(name.length + 3) : fallback;
}

const subject = option("subject", "herald");
const requests = Number(option("requests", "20000"));
const repeats = Number(option("repeats", "7"));
const batch = Number(option("batch", "32"));
const connections = Number(option("connections", "4"));
const route = option("route", "echo");
/** Herald's log level: `warn` leaves the request log out, to price it. */
const logLevel = option("log-level", "info");

const TARGET = route === "hello" ? HELLO_PATH : `${ECHO_PATH}?${ECHO_QUERY}`;
const REQUEST = Buffer.from(`GET ${TARGET} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip, br\r\n\r\n`);
const STATUS_LINE = "HTTP/1.1 ";

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function startSubject(): Promise<{ port: number; stop(): Promise<void> }> {
  if (subject === "fastify") {
    // Its log goes to stdout: run with stdout sent to /dev/null, as the full benchmark does.
    const app = fastifyBaseline();
    await app.listen({ port: 0, host: "127.0.0.1" });
    return { port: (app.server.address() as AddressInfo).port, stop: () => app.close() };
  }
  if (subject === "express" || subject === "node") {
    const server = createServer(subject === "node" ? nodeBaseline : expressBaseline());
    const port = await listen(server);
    return { port, stop: () => new Promise((resolve) => server.close(() => resolve())) };
  }
  const herald: HeraldServer = await createHerald({
    appDir: BENCH_APP,
    runMode: RUN_MODE.server,
    env: heraldEnv({ PORT: "0", LOG_LEVEL: logLevel }),
    overrides: [],
    logDestination: openSync("/dev/null", "w"),
  }).start();
  return { port: Number(new URL(herald.url!).port), stop: () => herald.stop() };
}

/** Sends `count` requests on one socket, `batch` at a time, and resolves once every answer arrived. */
function drive(socket: Socket, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let answered = 0;
    let outstanding = 0;
    let sent = 0;
    const sendBatch = () => {
      const size = Math.min(batch, count - sent);
      socket.write(Buffer.concat(Array.from({ length: size }, () => REQUEST)));
      sent += size;
      outstanding += size;
    };
    const onData = (chunk: Buffer) => {
      const text = chunk.toString("latin1");
      for (let at = text.indexOf(STATUS_LINE); at !== -1; at = text.indexOf(STATUS_LINE, at + 1)) {
        if (!text.startsWith("HTTP/1.1 200", at)) return reject(new Error(`Unexpected answer: ${text.slice(at, at + 200)}`));
        answered += 1;
        outstanding -= 1;
      }
      if (answered === count) {
        socket.off("data", onData);
        return resolve();
      }
      if (outstanding === 0) sendBatch();
    };
    socket.on("data", onData);
    sendBatch();
  });
}

async function round(sockets: Socket[]): Promise<number> {
  const before = process.cpuUsage();
  await Promise.all(sockets.map((socket) => drive(socket, Math.ceil(requests / sockets.length))));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

async function main(): Promise<void> {
  const target = await startSubject();
  const sockets = await Promise.all(
    Array.from({ length: connections }, () => new Promise<Socket>((resolve) => {
      const socket = connect(target.port, "127.0.0.1", () => resolve(socket));
      socket.setNoDelay(true);
    })),
  );
  await round(sockets);
  const samples: number[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) samples.push(await round(sockets));
  for (const socket of sockets) socket.destroy();
  await target.stop();
  const shown = samples.map((sample) => sample.toFixed(1)).join(" ");
  process.stderr.write(`${subject}: CPU µs/request (server and client) median ${median(samples).toFixed(1)} (${shown})\n`);
}

void main();
