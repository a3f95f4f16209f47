import type { Socket } from "node:net";

/** How long a refused client has to read its answer and hang up before its socket is destroyed. */
export const REFUSED_LINGER_MS = 2_000;

/**
 * Destroys the socket once the linger time is up, unless it closed first. A deadline rather than
 * an idle timeout: a client trickling bytes must not keep it open.
 */
export function destroyAfterLinger(socket: Socket): void {
  const deadline = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  socket.once("close", () => clearTimeout(deadline));
}
