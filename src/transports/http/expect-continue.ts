import type { IncomingMessage, Server, ServerResponse } from "node:http";

/**
 * Answers `Expect: 100-continue` only for a body that may fit: a client that declared a length
 * over the limit is not invited to send it, and gets its 413 before it starts. Node's own
 * handling would say `100 Continue` to every such request. It answers before routing, so the
 * limit is the largest any route reads.
 */
export function continueWithinLimit(listener: Server, bodyLimit: number): void {
  listener.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    if (!(Number(req.headers["content-length"]) > bodyLimit)) res.writeContinue();
    listener.emit("request", req, res);
  });
}
