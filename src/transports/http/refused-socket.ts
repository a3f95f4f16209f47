import type { Socket } from "node:net";

/** How long a refused client has, at most, to read its answer while what it still sends is dropped. */
export const REFUSED_LINGER_MS = 2_000;
/** How much a refused client may still send, read and dropped, before its socket is destroyed anyway. */
export const REFUSED_LINGER_BYTES = 8 * 1024 ** 2;
const LINGER_CHECK_MS = 100;

/**
 * Closes a socket whose answer is a refusal, the way nginx's lingering close does: the answer is
 * flushed and the sending side closed (FIN), then whatever the client still sends is read and
 * dropped until it hangs up, for at most REFUSED_LINGER_MS and REFUSED_LINGER_BYTES. Closing at
 * once with unread data would make the kernel reset the connection, and a client still uploading
 * would lose the answer with its receive buffer.
 *
 * The socket must already be read from: by the HTTP server's parser (which drops the body of an
 * answered request) or by `socket.resume()`. Its byte count is polled because the parser may read
 * the socket's handle directly, without `data` events.
 */
export function closeLingering(socket: Socket): void {
  if (socket.destroyed) return;
  const readBefore = socket.bytesRead;
  const destroy = () => socket.destroy();
  const deadline = setTimeout(destroy, REFUSED_LINGER_MS).unref();
  const sizeCheck = setInterval(() => {
    if (socket.bytesRead - readBefore > REFUSED_LINGER_BYTES) destroy();
  }, LINGER_CHECK_MS).unref();
  socket.once("close", () => {
    clearTimeout(deadline);
    clearInterval(sizeCheck);
  });
  socket.end();
}

/**
 * Makes the HTTP server close this request's socket lingering, once its answer is written, in
 * place of `destroySoon()`, which it calls after an answer with `Connection: close` and which
 * destroys the socket as soon as the answer is flushed, unread upload or not.
 */
export function lingerAfterAnswer(socket: Socket): void {
  socket.destroySoon = () => closeLingering(socket);
}
