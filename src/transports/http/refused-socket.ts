import type { Socket } from "node:net";

/** How long, at most, a refused client has to read its answer while what it still sends is dropped: nginx's `lingering_time`. */
export const REFUSED_LINGER_MS = 30_000;

/** How long a refused client may go without sending before its connection closes: nginx's `lingering_timeout`. */
export const REFUSED_LINGER_IDLE_MS = 5_000;

/**
 * Closes a socket whose answer is a refusal, the way nginx's lingering close does: the answer is
 * flushed and the sending side closed (FIN), then whatever the client still sends is read and
 * dropped until it hangs up, goes quiet for REFUSED_LINGER_IDLE_MS, or REFUSED_LINGER_MS have
 * passed. Closing at once with unread data would make the kernel reset the connection, and a
 * client still uploading would lose the answer with its receive buffer. The bounds are on time
 * alone, as nginx's are: a bound of 8 MiB read reset loopback clients within 100 ms of their
 * refusal, and a bound of 2 s in all reset a client whose process stalled that long mid-upload
 * (a loaded machine): on resuming, its next write failed before it had read the answer.
 *
 * The socket must already be read from: by the HTTP server's parser (which drops the body of an
 * answered request) or by `socket.resume()`.
 */
export function closeLingering(socket: Socket): void {
  if (socket.destroyed) return;
  const deadline = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  socket.setTimeout(REFUSED_LINGER_IDLE_MS);
  socket.once("timeout", () => socket.destroy());
  socket.once("close", () => clearTimeout(deadline));
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
