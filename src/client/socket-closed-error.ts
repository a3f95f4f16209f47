/**
 * The error of a socket call that was not answered because the socket is not connected: made
 * before it opened, while it reconnects or after `close()`, or in flight when the connection
 * dropped. Not a HeraldClientError: the server said nothing, so the call may be retried once the
 * socket is open again (`await socket.opened()`).
 */
export class SocketClosedError extends Error {
  override readonly name = "SocketClosedError";

  constructor(message = "herald/client socket: not connected") {
    super(message);
  }
}
