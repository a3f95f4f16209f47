import type { Socket } from "node:net";

/** How long a refused client has, at most, to read its answer while what it still sends is dropped. */
export const REFUSED_LINGER_MS = 2_000;

/**
 * Closes a socket whose answer is a refusal, the way nginx's lingering close does: the answer is
 * flushed and the sending side closed (FIN), then whatever the client still sends is read and
 * dropped until it hangs up, for at most REFUSED_LINGER_MS. Closing at once with unread data
 * would make the kernel reset the connection, and a client still uploading would lose the answer
 * with its receive buffer. The bound is on time alone, as nginx's is: a bound of 8 MiB read
 * reset loopback clients within 100 ms of their refusal, before a client busy uploading (or on a
 * loaded machine) had read its answer.
 *
 * The socket must already be read from: by the HTTP server's parser (which drops the body of an
 * answered request) or by `socket.resume()`.
 */
export function closeLingering(socket: Socket): void {
  if (socket.destroyed) return;
  const deadline = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
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
