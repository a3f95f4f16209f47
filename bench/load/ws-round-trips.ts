import WebSocket from "ws";
import { Latencies } from "./latencies";

export interface WsLoad {
  url: string;
  clients: number;
  durationSeconds: number;
  /** The action message's `action` and `params`. */
  action: string;
  params: Record<string, unknown>;
}

export interface WsMeasure {
  roundTrips: number;
  messagesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}

/**
 * `clients` sockets, each with one action message in flight: it sends the next when the reply
 * to the previous one arrives, until the time is up. Counts round trips and their latency.
 */
export async function measureWebSocket(load: WsLoad): Promise<WsMeasure> {
  const sockets = await Promise.all(Array.from({ length: load.clients }, () => open(load.url)));
  const latencies = new Latencies();
  let failure: Error | undefined;
  const started = performance.now();
  const deadline = started + load.durationSeconds * 1000;
  let sequence = 0;
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          let sentAt = 0;
          let expected = "";
          const sendNext = () => {
            if (failure || performance.now() >= deadline) return resolve();
            expected = String(++sequence);
            sentAt = performance.now();
            socket.send(JSON.stringify({ messageType: "action", action: load.action, messageId: expected, params: load.params }));
          };
          socket.on("message", (data) => {
            const reply = JSON.parse(String(data)) as { messageId?: unknown; response?: unknown; error?: unknown };
            if (reply.messageId !== expected || reply.response === undefined) {
              failure ??= new Error(`Unexpected reply to message ${expected}: ${String(data).slice(0, 300)}`);
              return resolve();
            }
            latencies.add(performance.now() - sentAt);
            sendNext();
          });
          socket.once("close", () => resolve());
          sendNext();
        }),
    ),
  );
  const elapsedSeconds = (performance.now() - started) / 1000;
  await Promise.all(sockets.map((socket) => closeSocket(socket)));
  if (failure) throw failure;
  return {
    roundTrips: latencies.count,
    messagesPerSecond: latencies.count / elapsedSeconds,
    ...latencies.percentiles(),
  };
}

export function closeSocket(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    socket.once("close", () => resolve());
    socket.close();
    setTimeout(() => socket.terminate(), 2000).unref();
  });
}

/** Opens `count` sockets that then stay idle, `batch` handshakes at a time. */
export async function openIdleSockets(url: string, count: number, batch = 200): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  while (sockets.length < count) {
    const size = Math.min(batch, count - sockets.length);
    sockets.push(...(await Promise.all(Array.from({ length: size }, () => open(url)))));
  }
  return sockets;
}
