import { STATUS_CODES, type Server } from "node:http";
import type { Socket } from "node:net";
import type { ResponseCodec } from "../../core/response-codec";
import { addressKey } from "../../core/caller-address";
import { ErrorType, TypedError } from "../../core/errors";
import { closeLingering } from "./refused-socket";

const RETRY_AFTER_SECONDS = 1;

function tooManyConnections(limit: number): TypedError {
  return new TypedError({
    message: `Too many connections from this address: at most ${limit} may be open at once`,
    type: ErrorType.CONNECTION_RATE_LIMITED,
    value: { limit },
  });
}

/** Answers a socket that the HTTP server will never see, and closes it. */
function refuse(socket: Socket, error: TypedError, codec: ResponseCodec): void {
  const body = codec.errorText(error);
  // The HTTP server never sees this socket, so nothing else handles its errors.
  socket.on("error", () => socket.destroy());
  socket.write(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
      "Connection: close\r\n" +
      `Retry-After: ${RETRY_AFTER_SECONDS}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  // The request is read and dropped, unparsed.
  socket.resume();
  closeLingering(socket);
}

/**
 * Caps the sockets open at once per remote address on an HTTP(S) listener, upgraded WebSockets
 * included. A socket over the cap gets `429 CONNECTION_RATE_LIMITED` and is closed before the
 * HTTP server reads anything from it. The address is the TCP peer's: behind a proxy, the proxy's.
 */
export function capConnectionsPerAddress(listener: Server, limit: number, options: { tls: boolean; codec: ResponseCodec }): void {
  if (limit === 0) return;
  // Over TLS the HTTP server takes sockets once their handshake is done.
  const event = options.tls ? "secureConnection" : "connection";
  // The first listener is the one Node's HTTP server registered when it was created.
  const [serveHttp] = listener.listeners(event) as ((socket: Socket) => void)[];
  if (!serveHttp) throw new Error(`The HTTP server has no "${event}" listener to cap`);
  const open = new Map<string, number>();
  // One listener for every socket rather than a closure (and once's wrapper) kept per open socket.
  // The address is read again at close: Node keeps the peer's address once it was read.
  function onClose(this: Socket): void {
    const address = addressKey(this.remoteAddress ?? "");
    const left = open.get(address)! - 1;
    if (left === 0) open.delete(address);
    else open.set(address, left);
  }
  listener.removeListener(event, serveHttp);
  listener.on(event, (socket: Socket) => {
    const address = addressKey(socket.remoteAddress ?? "");
    const count = open.get(address) ?? 0;
    if (count >= limit) return refuse(socket, tooManyConnections(limit), options.codec);
    open.set(address, count + 1);
    socket.on("close", onClose);
    serveHttp.call(listener, socket);
  });
}
