import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { ResponseCodec } from "../../core/response-codec";
import type { TypedError } from "../../core/errors";

/** Answers an upgrade that will not become a socket with a plain HTTP error and the core error body. */
export function refuseUpgrade(socket: Duplex, error: TypedError, codec: ResponseCodec, headers: Record<string, string> = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = codec.errorText(error);
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? "Error"}\r\n` +
      "Connection: close\r\n" +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("") +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
